import type { InteractionAnswer, InteractionRecord } from '../../src-shared/interaction-model';
import type { AnswerDraft } from '../forms/interaction-draft';
import type { SliceCreator } from './app-state';
import { interactionDraftStore } from './interaction-draft-store';
import type { InteractionsState } from './reducers/interactions-reducer';
import {
  applyInteraction,
  applyPendingList,
  EMPTY_INTERACTIONS,
  forgetInteraction,
} from './reducers/interactions-reducer';
import { applyTurn } from './reducers/transcript-reducer';

const PENDING_LIMIT = 500;

/** What the person has entered in one interaction's form, kept in the store so scrolling it away loses nothing. */
export interface InteractionFormState {
  readonly draft: AnswerDraft | null;
  /** A permission's optional reason for Deny. */
  readonly reason: string;
  /** Set by the first Submit: from then on problems show next to the fields, re-checked as they change. */
  readonly attempted: boolean;
  readonly submitting: boolean;
  /** The host's refusal, in its words. */
  readonly error: string | null;
}

export const EMPTY_FORM: InteractionFormState = {
  draft: null,
  reason: '',
  attempted: false,
  submitting: false,
  error: null,
};

/** Questions, forms and approvals the agent puts to the person, and their answers. */
export interface InteractionsSlice {
  readonly interactions: InteractionsState;
  readonly interactionForms: Readonly<Record<string, InteractionFormState>>;
  /** The interaction whose card should take focus when it shows (after a jump from "Waiting for you"). */
  readonly focusInteractionId: string | null;
  /** Opens the interaction's session and asks its card to take focus. */
  jumpToInteraction(record: InteractionRecord): void;
  /** Asks the card of an interaction in the open session to take focus. */
  requestInteractionFocus(interactionId: string): void;
  clearInteractionFocus(): void;
  /** Reads every pending interaction (the "Waiting for you" list). */
  loadPendingInteractions(): Promise<void>;
  /** Reads an interaction a transcript shows, unless it is known or being read. */
  ensureInteraction(interactionId: string): Promise<void>;
  /** Edits keep the draft in memory and, per interaction, across reloads (secret answers excepted). */
  editAnswer(interactionId: string, draft: AnswerDraft): void;
  editReason(interactionId: string, reason: string): void;
  /** Brings back a pending interaction's half-filled answer after a reload. */
  restoreInteractionDraft(interactionId: string): void;
  /** Drops the draft of an interaction that is no longer pending (answered here or elsewhere, or closed). */
  forgetInteractionDraft(interactionId: string): void;
  /** Checks the draft and, when it passes, sends it as the answer; false when the draft was refused (its problems are shown). */
  answerFromDraft(interactionId: string): Promise<boolean>;
  /** Sends an answer as it is: decline, cancel, an allowance or deny. */
  answerInteraction(interactionId: string, answer: InteractionAnswer): Promise<void>;
}

export const createInteractionsSlice: SliceCreator<InteractionsSlice> = (set, get, deps) => {
  const { link } = deps;
  const saved = interactionDraftStore(deps.draftStorage);
  const reading = new Set<string>();
  let pendingRequest = 0;

  const patchForm = (interactionId: string, patch: Partial<InteractionFormState>) =>
    set((state) => ({
      interactionForms: {
        ...state.interactionForms,
        [interactionId]: { ...(state.interactionForms[interactionId] ?? EMPTY_FORM), ...patch },
      },
    }));

  const dropForm = (interactionId: string) =>
    set((state) => {
      if (state.interactionForms[interactionId] === undefined) return {};
      const interactionForms = { ...state.interactionForms };
      delete interactionForms[interactionId];
      return { interactionForms };
    });

  const persist = (interactionId: string) => {
    const record = get().interactions.byId[interactionId];
    const form = get().interactionForms[interactionId];
    if (record === undefined || form === undefined) return;
    saved.save(interactionId, record.request, { draft: form.draft, reason: form.reason });
  };

  return {
    interactions: EMPTY_INTERACTIONS,
    interactionForms: {},
    focusInteractionId: null,

    jumpToInteraction(record) {
      set({ focusInteractionId: record.interactionId });
      get().selectSession(record.sessionId);
    },

    requestInteractionFocus(interactionId) {
      set({ focusInteractionId: interactionId });
    },

    clearInteractionFocus() {
      set({ focusInteractionId: null });
    },

    async loadPendingInteractions() {
      const request = ++pendingRequest;
      const outcome = await link.invoke('interaction.list', { status: 'pending', limit: PENDING_LIMIT });
      if (request !== pendingRequest) return;
      get().flushEvents();
      if (!outcome.ok) {
        get().reportFailure(outcome.error);
        return;
      }
      set((state) => ({ interactions: applyPendingList(state.interactions, outcome.result.interactions) }));
    },

    async ensureInteraction(interactionId) {
      if (get().interactions.byId[interactionId] !== undefined || reading.has(interactionId)) return;
      reading.add(interactionId);
      try {
        const outcome = await link.invoke('interaction.get', { interactionId });
        get().flushEvents();
        if (outcome.ok)
          set((state) => ({ interactions: applyInteraction(state.interactions, outcome.result.interaction) }));
      } finally {
        reading.delete(interactionId);
      }
    },

    editAnswer(interactionId, draft) {
      patchForm(interactionId, { draft, error: null });
      persist(interactionId);
    },

    editReason(interactionId, reason) {
      patchForm(interactionId, { reason });
      persist(interactionId);
    },

    restoreInteractionDraft(interactionId) {
      if (get().interactionForms[interactionId] !== undefined) return;
      const restored = saved.load(interactionId);
      if (restored !== null) patchForm(interactionId, restored);
    },

    forgetInteractionDraft(interactionId) {
      saved.forget(interactionId);
      dropForm(interactionId);
    },

    async answerFromDraft(interactionId) {
      // The answer's checks load with the forms that fill it in (already there when one is submitted).
      const { answerOf, draftProblems, initialFormDraft, initialQuestionDraft } =
        await import('../forms/interaction-draft');
      const record = get().interactions.byId[interactionId];
      if (record === undefined || record.request.kind === 'permission' || record.request.kind === 'network')
        return true;
      const form = get().interactionForms[interactionId] ?? EMPTY_FORM;
      const draft =
        form.draft ?? (record.request.kind === 'question' ? initialQuestionDraft() : initialFormDraft(record.request));
      if (draftProblems(record.request, draft).length > 0) {
        patchForm(interactionId, { attempted: true, draft });
        return false;
      }
      await get().answerInteraction(interactionId, answerOf(record.request, draft));
      return true;
    },

    async answerInteraction(interactionId, answer) {
      if ((get().interactionForms[interactionId] ?? EMPTY_FORM).submitting) return;
      patchForm(interactionId, { submitting: true, error: null });
      const outcome = await link.invoke('interaction.answer', { interactionId, answer });
      if (outcome.ok) {
        const { interaction, turn } = outcome.result;
        set((state) => ({
          interactions: applyInteraction(state.interactions, interaction),
          transcripts: applyTurn(state.transcripts, turn),
        }));
        get().forgetInteractionDraft(interactionId);
        if (
          ('decision' in answer && answer.decision === 'allow_session') ||
          ('network' in answer && answer.network === 'allow_session')
        )
          void get().loadGrants(interaction.sessionId);
        return;
      }
      patchForm(interactionId, { submitting: false, attempted: true, error: outcome.error.message });
      if (
        outcome.error.code === 'operation_conflict' ||
        outcome.error.code === 'not_found' ||
        outcome.error.code === 'session_archived'
      ) {
        // Answered elsewhere, closed or gone meanwhile: read it again so the card shows what it is now.
        set((state) => ({ interactions: forgetInteraction(state.interactions, interactionId) }));
        void get().ensureInteraction(interactionId);
      }
    },
  };
};
