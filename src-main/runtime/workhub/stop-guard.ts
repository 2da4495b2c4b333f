import type { Candidate, Proposal } from '../../../src-shared/workhub-model';
import type { Stores } from '../../storage/stores';
import type { RoutedProposal } from './scripted-router';

/**
 * Only running work can be stopped. When a router proposes to stop work in a session where nothing
 * runs (no turn running or waiting, nothing of ours queued), the WorkHub says so instead of offering
 * a Stop that would do nothing. Returns null when the proposal stands.
 */
export function nothingRunningAnswer(
  stores: Stores,
  proposal: Proposal,
  candidates: readonly Candidate[],
): RoutedProposal | null {
  if (proposal.kind !== 'stop_work') return null;
  let sessionId: string | null;
  let title: string | null;
  if ('candidateRef' in proposal.target) {
    const ref = proposal.target.candidateRef;
    const candidate = candidates.find((known) => known.candidateRef === ref);
    sessionId = candidate?.sessionId ?? null;
    title = candidate?.title ?? null;
  } else {
    sessionId = stores.workhub.delegationOfAction(proposal.target.delegationActionId)?.targetSessionId ?? null;
    title = sessionId === null ? null : (stores.sessions.get(sessionId)?.title ?? null);
  }
  if (sessionId === null) return null;
  if (stores.turns.activeTurn(sessionId) !== null || stores.queue.queued(sessionId).length > 0) return null;
  const name = title === null ? 'that session' : `“${title}”`;
  return {
    proposal: { kind: 'answer_here', text: `Nothing is running in ${name}, so there is nothing to stop.` },
    why: 'Only running work can be stopped.',
  };
}
