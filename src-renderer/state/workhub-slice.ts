import type { ChangeEvent } from '../../src-shared/events';
import type { Proposal, RouteResult } from '../../src-shared/workhub-model';
import { WORKHUB_SESSION_ID } from '../../src-shared/workhub-model';
import type { SliceCreator } from './app-state';
import type { WorkhubState } from './reducers/workhub-reducer';
import {
  actionIdFor,
  applyDelegationEvents,
  applyDelegationList,
  beginAttempt,
  dismissCard,
  EMPTY_WORKHUB,
  eventsNameUnknownDelegation,
  setPicking,
  settleAttempt,
} from './reducers/workhub-reducer';
import { isProposalItem } from './workhub-items';
import { needsConfirmation, proposalTarget } from './workhub-proposals';

const DELEGATIONS_LIMIT = 200;
/** Re-reads of the delegations that events ask for are folded together over this long. */
const DELEGATIONS_REFRESH_MS = 300;

/** The WorkHub: routing what the person wants, acting on proposals as they confirm, and the delegations it made. */
export interface WorkhubSlice {
  readonly workhub: WorkhubState;
  /** Opens the WorkHub's coordination chat in the main pane. */
  openWorkhub(): void;
  /** Sends the WorkHub composer's text to be routed (a fresh request id); the text comes back if it fails. */
  sendToWorkhub(): Promise<void>;
  /** Routes a text again as a new request (after its target went stale). */
  routeAgain(text: string): Promise<void>;
  /**
   * Acts on a proposal card: `proposal` is the card's own or an alternative the person picked. A stop
   * or a correction first asks for confirmation (confirmAction sends it).
   */
  actOnProposal(route: RouteResult, proposal: Proposal): Promise<void>;
  /** Sends a card's failed act again, with the same action id (so it is not done twice). */
  retryAct(requestId: string): Promise<void>;
  confirmAction(): Promise<void>;
  cancelConfirmation(): void;
  /** Cancel on a card: nothing is done, and the WorkHub records it (every window shows it cancelled). */
  cancelProposal(requestId: string): Promise<void>;
  setPicking(requestId: string, picking: boolean): void;
  setTasksOpen(open: boolean): void;
  loadDelegations(): Promise<void>;
  /** Applies a batch of host events to the delegations' live state (the sync slice calls it). */
  noteWorkhubEvents(events: readonly ChangeEvent[]): void;
}

export const createWorkhubSlice: SliceCreator<WorkhubSlice> = (set, get, deps) => {
  const { link, timers } = deps;
  let delegationsRequest = 0;
  let refreshTimer: unknown = null;

  const update = (change: (state: WorkhubState) => WorkhubState) => set((state) => ({ workhub: change(state.workhub) }));

  function refreshDelegationsSoon() {
    if (refreshTimer !== null) return;
    refreshTimer = timers.setTimeout(() => {
      refreshTimer = null;
      void get().loadDelegations();
    }, DELEGATIONS_REFRESH_MS);
  }

  async function route(text: string): Promise<boolean> {
    const requestId = deps.newId();
    update((state) => ({ ...state, routing: [...state.routing, { requestId, text }] }));
    const outcome = await link.invoke('workhub.route', { requestId, text });
    update((state) => ({ ...state, routing: state.routing.filter((pending) => pending.requestId !== requestId) }));
    get().flushEvents();
    if (!outcome.ok) {
      get().reportFailure(outcome.error);
      return false;
    }
    // The proposal normally arrives as an event first; if the open transcript missed it, read it again.
    const transcript = get().transcripts[WORKHUB_SESSION_ID];
    if (transcript?.status === 'ready') {
      const shown = transcript.itemIds.some((itemId) => {
        const item = transcript.itemsById[itemId];
        return item !== undefined && isProposalItem(item) && item.data?.requestId === requestId;
      });
      if (!shown) void get().refreshSession(WORKHUB_SESSION_ID);
    }
    // An answer or a question back changes no work: it is said in the WorkHub at once.
    const { proposal, candidateSetId } = outcome.result;
    if (proposal.kind === 'answer_here' || proposal.kind === 'clarify') void act(requestId, proposal, candidateSetId, false);
    return true;
  }

  async function act(requestId: string, proposal: Proposal, candidateSetId: string | null, confirmed: boolean) {
    const actionId = actionIdFor(requestId, proposal, deps.newId);
    const begun = beginAttempt(get().workhub, requestId, { actionId, proposal, candidateSetId, confirmed });
    if (begun === null) return;
    set({ workhub: begun.state });
    const { attempt } = begun;
    const outcome = await link.invoke('workhub.act', {
      actionId: attempt.actionId,
      requestId,
      proposal: attempt.proposal,
      ...(attempt.candidateSetId === null ? {} : { candidateSetId: attempt.candidateSetId }),
      ...(attempt.confirmed ? { confirmation: 'user_confirmed' as const } : {}),
    });
    get().flushEvents();
    update((state) => settleAttempt(state, requestId, attempt.actionId, outcome));
    if (outcome.ok && outcome.result.kind === 'awaiting_choice') void get().ensureInteraction(outcome.result.interactionId);
  }

  return {
    workhub: EMPTY_WORKHUB,

    openWorkhub() {
      get().selectSession(WORKHUB_SESSION_ID);
      if (!get().workhub.delegationsLoaded) void get().loadDelegations();
    },

    async sendToWorkhub() {
      const text = get().drafts[WORKHUB_SESSION_ID] ?? '';
      if (text.trim() === '') return;
      get().setDraft(WORKHUB_SESSION_ID, '');
      const sent = await route(text);
      if (!sent) {
        const typed = get().drafts[WORKHUB_SESSION_ID] ?? '';
        get().setDraft(WORKHUB_SESSION_ID, [text, typed].filter((part) => part.trim() !== '').join('\n\n'));
      }
    },

    async routeAgain(text) {
      await route(text);
    },

    async actOnProposal(routed, proposal) {
      const candidateSetId = routed.candidateSetId === '' ? null : routed.candidateSetId;
      if (needsConfirmation(proposal)) {
        const targetTitle = proposalTarget(proposal, routed.candidates, get().workhub.delegations)?.title ?? null;
        update((state) => ({ ...state, confirming: { requestId: routed.requestId, proposal, candidateSetId, targetTitle } }));
        return;
      }
      await act(routed.requestId, proposal, candidateSetId, false);
    },

    async retryAct(requestId) {
      const card = get().workhub.cards[requestId];
      if (card?.phase !== 'failed' || card.attempt === null) return;
      const { proposal, candidateSetId, confirmed } = card.attempt;
      await act(requestId, proposal, candidateSetId, confirmed);
    },

    async confirmAction() {
      const pending = get().workhub.confirming;
      if (pending === null) return;
      update((state) => ({ ...state, confirming: null }));
      await act(pending.requestId, pending.proposal, pending.candidateSetId, true);
    },

    cancelConfirmation() {
      update((state) => (state.confirming === null ? state : { ...state, confirming: null }));
    },

    async cancelProposal(requestId) {
      const before = get().workhub.cards[requestId];
      if (before?.phase === 'acting' || before?.phase === 'done') return;
      update((state) => dismissCard(state, requestId, true));
      const outcome = await link.invoke('workhub.cancel', { requestId });
      get().flushEvents();
      if (!outcome.ok) {
        update((state) => dismissCard(state, requestId, false));
        get().reportFailure(outcome.error);
      }
    },

    setPicking(requestId, picking) {
      update((state) => setPicking(state, requestId, picking));
    },

    setTasksOpen(open) {
      update((state) => (state.tasksOpen === open ? state : { ...state, tasksOpen: open }));
      if (open) void get().loadDelegations();
    },

    async loadDelegations() {
      const request = ++delegationsRequest;
      const outcome = await link.invoke('workhub.delegations', { limit: DELEGATIONS_LIMIT });
      if (request !== delegationsRequest) return;
      get().flushEvents();
      if (!outcome.ok) {
        // The list is a convenience; a failed read keeps what is shown (the Tasks view says when it is empty).
        if (get().workhub.tasksOpen) get().reportFailure(outcome.error);
        return;
      }
      update((state) => applyDelegationList(state, outcome.result.delegations));
    },

    noteWorkhubEvents(events) {
      const { workhub } = get();
      if (!workhub.delegationsLoaded) return;
      const delegations = applyDelegationEvents(workhub.delegations, events);
      if (delegations !== workhub.delegations) update((state) => ({ ...state, delegations: applyDelegationEvents(state.delegations, events) }));
      if (eventsNameUnknownDelegation(delegations, events)) refreshDelegationsSoon();
    },
  };
};
