import type { Proposal } from './workhub-proposal-schema';
import type { OperationError } from './errors';
import type { SessionActivity } from './model';

export type { Proposal, WorkTarget } from './workhub-proposal-schema';

/** The WorkHub: one coordination chat that routes what the person wants to the right work. */

export const WORKHUB_SESSION_ID = 'workhub';

export const CANDIDATE_STATES = [
  'idle',
  'running',
  'waiting_for_user',
  'interrupted',
  'failed',
  'goal_active',
] as const;
export type CandidateState = (typeof CANDIDATE_STATES)[number];

/** A session's state as the WorkHub names it: what runs there, else whether a goal keeps it going. */
export function candidateStateOf(activity: SessionActivity, goalActive: boolean): CandidateState {
  switch (activity) {
    case 'running':
      return 'running';
    case 'waiting':
      return 'waiting_for_user';
    case 'interrupted':
      return 'interrupted';
    case 'failed':
      return 'failed';
    default:
      return goalActive ? 'goal_active' : 'idle';
  }
}

export interface Candidate {
  /** Stable within its candidate set (c1, c2, …). */
  readonly candidateRef: string;
  readonly sessionId: string;
  readonly title: string;
  readonly workspace: string | null;
  readonly state: CandidateState;
  readonly updatedAt: number;
  readonly latestDelegationActionId: string | null;
  /** Briefly, why it matched. */
  readonly why: string;
}

export interface CandidateSet {
  readonly candidateSetId: string;
  readonly candidates: readonly Candidate[];
}

/** The kinds of proposal the router makes (workhub-proposal-schema.ts decodes a proposal; workhub-proposal-schema.test.ts keeps the two in step). */
export const PROPOSAL_KINDS = [
  'answer_here',
  'clarify',
  'create_new',
  'delegate_existing',
  'choose',
  'stop_work',
  'resume_work',
  'correct',
] as const;
export type ProposalKind = (typeof PROPOSAL_KINDS)[number];

/** Proposals that change running work: the person must confirm them in the UI. */
export const NEEDS_CONFIRMATION: readonly ProposalKind[] = ['stop_work', 'correct'];

export interface RouteResult {
  readonly requestId: string;
  readonly proposal: Proposal;
  /** What Cairn will do and why, for the proposal card. */
  readonly why: string;
  readonly candidateSetId: string;
  readonly candidates: readonly Candidate[];
}

export interface DelegationRecord {
  readonly actionId: string;
  readonly delegationId: string;
  readonly targetSessionId: string;
  readonly targetTurnId: string;
  readonly text: string;
  /** Live: queued while it waits behind other work, else the target turn's status; `removed` when its session is gone. */
  readonly status: 'queued' | 'running' | 'waiting' | 'completed' | 'failed' | 'cancelled' | 'interrupted' | 'removed';
  readonly targetTitle: string | null;
  readonly createdAt: number;
}

export type StopOutcome = 'stop_delivered' | 'already_terminal' | 'not_owned';

export type ActResult =
  | { readonly kind: 'answered'; readonly text: string }
  | { readonly kind: 'clarified'; readonly question: string }
  | {
      readonly kind: 'delegated';
      readonly delegation: DelegationRecord;
      readonly queued: boolean;
      readonly createdSession: boolean;
    }
  | { readonly kind: 'awaiting_choice'; readonly interactionId: string }
  | { readonly kind: 'stopped'; readonly outcome: StopOutcome; readonly delegation: DelegationRecord | null }
  | { readonly kind: 'resumed'; readonly delegation: DelegationRecord }
  | { readonly kind: 'corrected'; readonly stop: StopOutcome; readonly delegation: DelegationRecord };

/**
 * What became of a routed request's proposal, as the WorkHub's transcript records it: carried out
 * (`done`, with the result), refused when tried (`failed`, with why), or `cancelled` by the person
 * (or by closing its choice form). A proposal with no decision is open while it is the newest
 * request, and superseded once a newer one was routed.
 */
export type ProposalDecision =
  | { readonly status: 'done'; readonly actionId: string; readonly proposal: Proposal; readonly result: ActResult }
  | {
      readonly status: 'failed';
      readonly actionId: string;
      readonly proposal: Proposal;
      readonly error: OperationError;
    }
  | { readonly status: 'cancelled' };

/** The `data` of the WorkHub transcript item that records a decision (a notice in the request's turn). */
export interface DecisionItemData {
  readonly workhubDecision: ProposalDecision;
  readonly requestId: string;
}

/** A WorkHub action as recorded: what was asked and what came of it (a refusal after trying is recorded too). */
export interface RecordedAction {
  readonly actionId: string;
  /** The routed request it acted on, when the act named one. */
  readonly requestId: string | null;
  readonly proposal: Proposal;
  readonly outcome:
    { readonly ok: true; readonly result: ActResult } | { readonly ok: false; readonly error: OperationError };
  readonly createdAt: number;
}
