import { z } from 'zod';
import { wellFormedString } from './well-formed-string';
import type { OperationError } from './errors';
import type { SessionActivity } from './model';

/** The WorkHub: one coordination chat that routes what the person wants to the right work. */

export const WORKHUB_SESSION_ID = 'workhub';

export const CANDIDATE_STATES = ['idle', 'running', 'waiting_for_user', 'interrupted', 'failed', 'goal_active'] as const;
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

const ref = wellFormedString().min(1).max(64);
const text = wellFormedString().trim().min(1).max(20_000);

export const workTargetSchema = z.union([z.strictObject({ candidateRef: ref }), z.strictObject({ delegationActionId: wellFormedString().min(1).max(128) })]);
export type WorkTarget = z.infer<typeof workTargetSchema>;

export const proposalSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('answer_here'), text }),
  z.strictObject({ kind: z.literal('clarify'), question: text }),
  z.strictObject({ kind: z.literal('create_new'), title: wellFormedString().trim().min(1).max(200), workspace: wellFormedString().max(4096).nullable(), text }),
  z.strictObject({ kind: z.literal('delegate_existing'), candidateRef: ref, text }),
  /** Several candidates fit: ask the person with a form (the candidates, plus "start new work"). */
  z.strictObject({ kind: z.literal('choose'), candidateRefs: z.array(ref).min(2).max(32), text }),
  z.strictObject({ kind: z.literal('stop_work'), target: workTargetSchema }),
  z.strictObject({ kind: z.literal('resume_work'), target: workTargetSchema }),
  z.strictObject({
    kind: z.literal('correct'),
    replacesActionId: wellFormedString().min(1).max(128),
    target: z.union([
      z.strictObject({ candidateRef: ref }),
      z.strictObject({ createNew: z.strictObject({ title: wellFormedString().trim().min(1).max(200), workspace: wellFormedString().max(4096).nullable() }) }),
    ]),
  }),
]);
export type Proposal = z.infer<typeof proposalSchema>;
export type ProposalKind = Proposal['kind'];

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
  | { readonly kind: 'delegated'; readonly delegation: DelegationRecord; readonly queued: boolean; readonly createdSession: boolean }
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
  | { readonly status: 'failed'; readonly actionId: string; readonly proposal: Proposal; readonly error: OperationError }
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
  readonly outcome: { readonly ok: true; readonly result: ActResult } | { readonly ok: false; readonly error: OperationError };
  readonly createdAt: number;
}
