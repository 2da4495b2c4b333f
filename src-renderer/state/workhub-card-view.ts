import type { OperationError } from '../../src-shared/errors';
import type { GoalRecord } from '../../src-shared/goal-model';
import type { SessionRecord, TranscriptItem } from '../../src-shared/model';
import type { ActResult, CandidateState, DelegationRecord, ProposalDecision } from '../../src-shared/workhub-model';
import { candidateStateOf } from '../../src-shared/workhub-model';
import type { ProposalCardState } from './reducers/workhub-reducer';
import { proposalOf } from './workhub-proposals';

/**
 * What a WorkHub proposal card shows, derived from the record (the decision in the WorkHub's
 * transcript, the form a choice put up, a hand-off it made) and, while nothing is recorded yet, from
 * what this window is doing with it. Only the newest undecided proposal offers actions.
 */
export type CardView =
  | { readonly kind: 'open' }
  | { readonly kind: 'acting' }
  | { readonly kind: 'done'; readonly result: ActResult | null }
  /** Refused: `recorded` when the refusal is the request's decision (only Route again is left). */
  | { readonly kind: 'failed'; readonly error: OperationError; readonly recorded: boolean }
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'superseded' };

export interface CardFacts {
  readonly decision: ProposalDecision | null;
  /** The form a choose act put up for this request, if any. */
  readonly choiceId: string | null;
  /** A hand-off the record shows for this request (from before decisions were recorded). */
  readonly handed: DelegationRecord | null;
  readonly card: ProposalCardState;
  /** Whether this is the newest proposal in the WorkHub. */
  readonly newest: boolean;
}

export function cardView({ decision, choiceId, handed, card, newest }: CardFacts): CardView {
  if (decision !== null) {
    switch (decision.status) {
      case 'done':
        return { kind: 'done', result: decision.result };
      case 'failed':
        return { kind: 'failed', error: decision.error, recorded: true };
      case 'cancelled':
        return { kind: 'cancelled' };
    }
  }
  if (choiceId !== null) return { kind: 'done', result: { kind: 'awaiting_choice', interactionId: choiceId } };
  if (card.phase === 'done') return { kind: 'done', result: card.result };
  if (handed !== null) return { kind: 'done', result: null };
  if (card.phase === 'acting') return { kind: 'acting' };
  if (card.phase === 'dismissed') return { kind: 'cancelled' };
  if (!newest) return { kind: 'superseded' };
  if (card.phase === 'failed' && card.error !== null) return { kind: 'failed', error: card.error, recorded: false };
  return { kind: 'open' };
}

/** The decision a WorkHub transcript item records, if it is a decision notice. */
export function decisionOf(item: TranscriptItem): { requestId: string; decision: ProposalDecision } | null {
  if (item.kind !== 'notice' || item.data === null) return null;
  const { requestId, workhubDecision } = item.data;
  if (typeof requestId !== 'string' || workhubDecision === null || typeof workhubDecision !== 'object') return null;
  const decision = workhubDecision as Record<string, unknown>;
  if (decision.status === 'cancelled') return { requestId, decision: { status: 'cancelled' } };
  const proposal = proposalOf(decision.proposal);
  if (proposal === null || typeof decision.actionId !== 'string') return null;
  if (decision.status === 'done' && isResult(decision.result)) {
    return { requestId, decision: { status: 'done', actionId: decision.actionId, proposal, result: decision.result } };
  }
  if (decision.status === 'failed' && isError(decision.error)) {
    return { requestId, decision: { status: 'failed', actionId: decision.actionId, proposal, error: decision.error } };
  }
  return null;
}

function isResult(value: unknown): value is ActResult {
  return value !== null && typeof value === 'object' && typeof (value as { kind?: unknown }).kind === 'string';
}

function isError(value: unknown): value is OperationError {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { code?: unknown }).code === 'string' &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}

/**
 * A session's state now, as a candidate chip shows it — never the snapshot taken when the request was
 * routed; null when this window does not know the session (then no chip is better than a stale one).
 */
export function liveCandidateState(
  session: SessionRecord | undefined,
  goal: GoalRecord | null | undefined,
): CandidateState | null {
  if (session === undefined) return null;
  return candidateStateOf(session.activity, goal?.status === 'active');
}

/** Whether work can be stopped in a session in that state: a turn running or waiting (as the host checks it). */
export function hasRunningWork(state: CandidateState): boolean {
  return state === 'running' || state === 'waiting_for_user';
}
