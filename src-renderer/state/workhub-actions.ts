import type { Proposal } from '../../src-shared/workhub-model';
import { WORKHUB_SESSION_ID } from '../../src-shared/workhub-model';
import type { SliceCreator } from './app-state';
import type { WorkhubState } from './reducers/workhub-reducer';
import { actionIdFor, beginAttempt, dismissCard, settleAttempt } from './reducers/workhub-reducer';
import type { WorkhubActions } from './workhub-slice';
import { isProposalItem } from './workhub-items';
import { needsConfirmation, proposalTarget } from './workhub-proposals';

/** The WorkHub slice's routing and acting, loaded on the first call (see deferredActions). */
export const createWorkhubActions: SliceCreator<WorkhubActions> = (set, get, deps) => {
  const { link } = deps;
  const update = (change: (state: WorkhubState) => WorkhubState) =>
    set((state) => ({ workhub: change(state.workhub) }));

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
    if (proposal.kind === 'answer_here' || proposal.kind === 'clarify')
      void act(requestId, proposal, candidateSetId, false);
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
    if (outcome.ok && outcome.result.kind === 'awaiting_choice')
      void get().ensureInteraction(outcome.result.interactionId);
  }

  return {
    async sendToWorkhub() {
      const text = get().readDraft(WORKHUB_SESSION_ID);
      if (text.trim() === '') return;
      get().setDraft(WORKHUB_SESSION_ID, '');
      const sent = await route(text);
      if (!sent) {
        const typed = get().readDraft(WORKHUB_SESSION_ID);
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
        update((state) => ({
          ...state,
          confirming: { requestId: routed.requestId, proposal, candidateSetId, targetTitle },
        }));
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
  };
};
