import type { ChangeEventBody } from '../../../src-shared/events';
import { fail, ok, type OperationError, type Outcome } from '../../../src-shared/errors';
import type {
  ActResult,
  DecisionItemData,
  Proposal,
  ProposalDecision,
  RecordedAction,
} from '../../../src-shared/workhub-model';
import { WORKHUB_SESSION_ID } from '../../../src-shared/workhub-model';
import { proposalSchema } from '../../../src-shared/workhub-proposal-schema';
import type { StoredAction } from '../../storage/workhub-store';
import type { Stores } from '../../storage/stores';
import type { EventBus } from '../ports/event-bus';
import type { Clock, Ids } from '../ports/ports';
import { turnAndSessionEvents } from '../turns/run-lifecycle';

export interface DecisionDeps {
  readonly stores: Stores;
  readonly bus: EventBus;
  readonly clock: Clock;
  readonly ids: Ids;
}

/**
 * The codes acting on a proposal can answer with (`workhub.act`, a choice form's pick). A recorded
 * failure — an action's, a request's decision — is one of them: only `record` writes one, from an act.
 */
export type ActError =
  | 'invalid_input'
  | 'not_found'
  | 'operation_conflict'
  | 'candidate_set_stale'
  | 'session_archived'
  | 'session_busy'
  | 'host_draining'
  | 'storage_damaged';

/** Proposals that only say something (an answer, a question back): they change no work, so a newer request never sets them aside. */
const SAYS_ONLY: readonly Proposal['kind'][] = ['answer_here', 'clarify'];

/**
 * The WorkHub's record of what it did: each action's outcome (a failure only when something was done first), and
 * each routed request's decision — done, failed or cancelled — written into the WorkHub's transcript
 * as a notice in the request's turn, so every window, reload and restart shows the same thing.
 */
export class WorkHubDecisions {
  constructor(private readonly deps: DecisionDeps) {}

  /** What a replay of an action answers: exactly what it answered the first time. */
  replay(actionId: string): { proposal: unknown; outcome: Outcome<ActResult, ActError> } | null {
    const stored = this.deps.stores.workhub.action(actionId);
    return stored === null ? null : { proposal: stored.proposal, outcome: outcomeOf(stored) };
  }

  recordedAction(actionId: string): Outcome<{ action: RecordedAction }, 'not_found'> {
    const stored = this.deps.stores.workhub.action(actionId);
    const proposal = stored === null ? null : proposalSchema.safeParse(stored.proposal);
    if (stored === null || proposal === null || !proposal.success)
      return fail('not_found', 'No WorkHub action with that id was carried out.');
    return ok({
      action: {
        actionId: stored.actionId,
        requestId: stored.requestId,
        proposal: proposal.data,
        outcome: outcomeOf(stored),
        createdAt: stored.createdAt,
      },
    });
  }

  /**
   * Whether acting on a request's proposal is still open: null if so; else what the act answers —
   * the recorded result of a decided request, or why nothing is done (cancelled, superseded, unknown).
   */
  standing(requestId: string, proposal: Proposal): Outcome<ActResult, ActError> | null {
    const { workhub } = this.deps.stores;
    if (workhub.routedProposal(requestId) === null)
      return fail('not_found', 'The WorkHub has no request with that id.');
    const decided = this.decided(requestId);
    if (decided !== null) return decided;
    if (!SAYS_ONLY.includes(proposal.kind) && workhub.latestRequestId() !== requestId) {
      return fail(
        'candidate_set_stale',
        'A newer request came after this proposal, so it was set aside and nothing was done. Ask again if you still want it.',
      );
    }
    return null;
  }

  /** What acting on a request answers once it is decided (its recorded result, or why nothing is done); null while undecided. */
  decided(requestId: string): Outcome<ActResult, ActError> | null {
    const decided = this.deps.stores.workhub.decision(requestId);
    return decided === null ? null : answerOf(decided.decision as ProposalDecision);
  }

  /** Records an action's outcome and, when it acted on a request, that request's decision (the first one stands). */
  record(action: {
    actionId: string;
    requestId: string | null;
    proposal: Proposal;
    outcome: Outcome<ActResult, ActError>;
  }): void {
    const { stores, clock } = this.deps;
    const { actionId, requestId, proposal, outcome } = action;
    const events = stores.transaction(() => {
      const now = clock.now();
      stores.workhub.recordAction({
        actionId,
        requestId,
        proposal,
        result: outcome.ok ? outcome.result : null,
        error: outcome.ok ? null : outcome.error,
        createdAt: now,
      });
      if (requestId === null || stores.workhub.decision(requestId) !== null) return [];
      const decision: ProposalDecision = outcome.ok
        ? { status: 'done', actionId, proposal, result: outcome.result }
        : { status: 'failed', actionId, proposal, error: outcome.error };
      return this.decide(requestId, decision, now);
    });
    for (const event of events) this.deps.bus.publish(event);
  }

  /** Cancels a request's proposal; a request already decided answers its decision. */
  cancel(requestId: string): Outcome<{ decision: ProposalDecision }, 'not_found'> {
    const { stores, clock, bus } = this.deps;
    if (stores.workhub.routedProposal(requestId) === null)
      return fail('not_found', 'The WorkHub has no request with that id.');
    const earlier = stores.workhub.decision(requestId);
    if (earlier !== null) return ok({ decision: earlier.decision as ProposalDecision });
    const decision: ProposalDecision = { status: 'cancelled' };
    const events = stores.transaction(() => this.decide(requestId, decision, clock.now()));
    for (const event of events) bus.publish(event);
    return ok({ decision });
  }

  /** Writes the decision and its notice in the request's turn; returns the events to publish. */
  private decide(requestId: string, decision: ProposalDecision, now: number): ChangeEventBody[] {
    const { stores, ids } = this.deps;
    stores.workhub.recordDecision({ requestId, status: decision.status, decision, createdAt: now });
    const turn = stores.turns.getTurn(WORKHUB_SESSION_ID, requestId);
    if (turn === null) return [];
    const data: DecisionItemData = { workhubDecision: decision, requestId };
    const item = stores.transcript.append(
      {
        sessionId: WORKHUB_SESSION_ID,
        itemId: ids.next('item'),
        turnId: requestId,
        runId: turn.latestRun.runId,
        kind: 'notice',
        text: decisionText(decision),
        state: 'final',
        data: { ...data },
        now,
      },
      stores.sessions.reservePositions(WORKHUB_SESSION_ID, 1),
    );
    stores.sessions.touch(WORKHUB_SESSION_ID, now);
    return [{ kind: 'transcript.appended', item }, ...turnAndSessionEvents(stores, WORKHUB_SESSION_ID, requestId)];
  }
}

function outcomeOf(stored: StoredAction): Outcome<ActResult, ActError> {
  return stored.error === null
    ? ok(stored.result as ActResult)
    : { ok: false, error: stored.error as OperationError<ActError> };
}

function answerOf(decision: ProposalDecision): Outcome<ActResult, ActError> {
  switch (decision.status) {
    case 'done':
      return ok(decision.result);
    case 'failed':
      return { ok: false, error: decision.error as OperationError<ActError> };
    case 'cancelled':
      return fail(
        'operation_conflict',
        'You cancelled this proposal, so nothing was done. Ask the WorkHub again if you still want it.',
      );
  }
}

const named = (title: string | null) => (title === null ? 'the session' : `“${title}”`);

/** The notice's words, for a reader of the record (the card words it from the decision itself). */
export function decisionText(decision: ProposalDecision): string {
  switch (decision.status) {
    case 'cancelled':
      return 'Cancelled — nothing was done.';
    case 'failed':
      return `Not done: ${trimStop(decision.error.message)}.`;
    case 'done':
      return resultText(decision.result);
  }
}

function resultText(result: ActResult): string {
  switch (result.kind) {
    case 'answered':
      return 'Answered here.';
    case 'clarified':
      return 'Asked you for more.';
    case 'awaiting_choice':
      return 'Asked you where it goes.';
    case 'delegated':
      return result.createdSession
        ? `Started new work in ${named(result.delegation.targetTitle)}.`
        : `Handed to ${named(result.delegation.targetTitle)}.`;
    case 'stopped':
      return result.outcome === 'stop_delivered'
        ? 'Stopped the work.'
        : result.outcome === 'already_terminal'
          ? 'Nothing was running to stop.'
          : 'Left the work alone: it was not from the WorkHub.';
    case 'resumed':
      return `Resumed in ${named(result.delegation.targetTitle)}.`;
    case 'corrected':
      return `Moved to ${named(result.delegation.targetTitle)}.`;
  }
}

function trimStop(text: string): string {
  return text.replace(/[.\s]+$/, '');
}
