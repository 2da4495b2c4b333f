import type { ChangeEventBody } from '../../../src-shared/events';
import { fail, ok, type Outcome } from '../../../src-shared/errors';
import type { GoalRecord, GoalStatus } from '../../../src-shared/goal-model';
import type { GoalChanges, StoredGoal } from '../../storage/goal-store';
import type { Stores } from '../../storage/stores';
import type { EventBus } from '../ports/event-bus';
import type { Clock, Ids } from '../ports/ports';
import { stableJson } from '../ports/stable-json';

export interface GoalServiceDeps {
  readonly stores: Stores;
  readonly bus: EventBus;
  readonly clock: Clock;
  readonly ids: Ids;
  /** Asks the driver to look at the session (start the next goal turn if it is idle). */
  readonly poke: (sessionId: string) => void;
  /** Stops the session's running goal turn (clearing a goal). */
  readonly stopGoalTurn: (sessionId: string, source: string) => void;
}

export type GoalControl =
  | { readonly action: 'pause' | 'resume' | 'clear' }
  | { readonly action: 'setLimits'; readonly tokenBudget?: number | null; readonly maxIterations?: number | null };

const LIMITED: readonly GoalStatus[] = ['budgetLimited', 'iterationLimited', 'usageLimited', 'blocked', 'paused'];

/**
 * Goals on sessions. The person arms, pauses, resumes, clears and edits limits (with the revision
 * they read); the agent may only create a goal, read it, and mark it complete or blocked; the
 * driver sets the limit statuses.
 */
export class GoalService {
  constructor(private readonly deps: GoalServiceDeps) {}

  get(sessionId: string): Outcome<{ goal: GoalRecord | null }, 'not_found'> {
    if (this.deps.stores.sessions.get(sessionId) === null) return missingSession();
    const goal = this.deps.stores.goals.current(sessionId);
    return ok({ goal: goal === null ? null : publicGoal(goal) });
  }

  currentOf(sessionIds: readonly string[]): { goals: GoalRecord[] } {
    return {
      goals: sessionIds.flatMap((sessionId) => {
        const goal = this.deps.stores.goals.current(sessionId);
        return goal === null ? [] : [publicGoal(goal)];
      }),
    };
  }

  history(sessionId: string): Outcome<{ goals: GoalRecord[] }, 'not_found'> {
    if (this.deps.stores.sessions.get(sessionId) === null) return missingSession();
    return ok({ goals: this.deps.stores.goals.history(sessionId).map(publicGoal) });
  }

  arm(
    request: { sessionId: string; objective: string; tokenBudget: number | null; maxIterations: number | null },
    createdBy: GoalRecord['createdBy'] = 'person',
  ): Outcome<{ goal: GoalRecord }, 'not_found' | 'operation_conflict' | 'session_archived'> {
    const { stores, clock, ids } = this.deps;
    const session = stores.sessions.get(request.sessionId);
    if (session === null) return missingSession();
    if (session.archived) return fail('session_archived', 'This session is archived. Unarchive it to set a goal.');
    const current = stores.goals.current(request.sessionId);
    if (current !== null && current.status !== 'complete') {
      return fail(
        'operation_conflict',
        `This session already has a goal (${current.status}). Clear it before setting another.`,
      );
    }
    const events: ChangeEventBody[] = [];
    const goal = stores.transaction(() => {
      const now = clock.now();
      if (current !== null)
        events.push({
          kind: 'goal.changed',
          goal: publicGoal(stores.goals.update(current.goalId, { cleared: true }, now)),
        });
      const created = stores.goals.insert({ goalId: ids.next('goal'), ...request, createdBy, now });
      events.push({ kind: 'goal.changed', goal: publicGoal(created) });
      return created;
    });
    for (const event of events) this.deps.bus.publish(event);
    this.deps.poke(request.sessionId);
    return ok({ goal: publicGoal(goal) });
  }

  control(
    request: { sessionId: string; goalId: string; expectedRevision: number; controlId?: string } & GoalControl,
  ): Outcome<{ goal: GoalRecord }, 'not_found' | 'operation_conflict' | 'revision_conflict'> {
    const { stores } = this.deps;
    const { controlId } = request;
    // A replay (same control id) answers the goal the command left, whatever happened to it since.
    const recorded = controlId === undefined ? null : stores.goals.control(controlId);
    if (recorded !== null) {
      if (stableJson(recorded.request) !== stableJson(request))
        return fail('operation_conflict', 'This control id was already used for a different change to the goal.');
      return ok({ goal: recorded.goal as GoalRecord });
    }
    const change = (goal: StoredGoal, changes: GoalChanges) =>
      this.change(
        goal,
        changes,
        controlId === undefined
          ? undefined
          : (updated) =>
              stores.goals.recordControl({
                controlId,
                goalId: goal.goalId,
                request,
                goal: updated,
                now: this.deps.clock.now(),
              }),
      );
    const goal = stores.goals.get(request.goalId);
    if (goal === null || goal.sessionId !== request.sessionId)
      return fail('not_found', 'That goal does not exist in this session.');
    if (goal.revision !== request.expectedRevision) {
      return fail(
        'revision_conflict',
        `The goal changed since you read it (revision ${goal.revision}, you had ${request.expectedRevision}). Reload and try again.`,
      );
    }
    if (goal.cleared) return fail('operation_conflict', 'This goal was cleared.');
    switch (request.action) {
      case 'pause':
        if (goal.status !== 'active')
          return fail('operation_conflict', `Only an active goal can be paused; this one is ${goal.status}.`);
        return ok({ goal: change(goal, { status: 'paused', lastReason: 'Paused by you' }) });
      case 'resume': {
        if (!LIMITED.includes(goal.status))
          return fail('operation_conflict', `This goal is ${goal.status}; there is nothing to resume.`);
        const limit = limitReached(goal);
        if (limit !== null) return fail('operation_conflict', `${limit} Raise the limit before resuming.`);
        const resumed = change(goal, { status: 'active', lastReason: 'Resumed by you', consecutiveFailures: 0 });
        this.deps.poke(goal.sessionId);
        return ok({ goal: resumed });
      }
      case 'clear': {
        const cleared = change(goal, { cleared: true, lastReason: 'Cleared by you' });
        this.deps.stopGoalTurn(goal.sessionId, 'goal_cleared');
        return ok({ goal: cleared });
      }
      case 'setLimits':
        return ok({
          goal: change(goal, {
            ...(request.tokenBudget === undefined ? {} : { tokenBudget: request.tokenBudget }),
            ...(request.maxIterations === undefined ? {} : { maxIterations: request.maxIterations }),
          }),
        });
    }
  }

  /** What the agent may do: mark the current goal complete or blocked, with its reason. */
  settleByAgent(sessionId: string, status: 'complete' | 'blocked', reason: string): GoalRecord | { error: string } {
    const goal = this.deps.stores.goals.current(sessionId);
    if (goal === null) return { error: 'This session has no goal.' };
    if (goal.status !== 'active')
      return { error: `The goal is ${goal.status}; only an active goal can be marked ${status}.` };
    return this.change(goal, { status, lastReason: reason });
  }

  /** Applies changes and publishes them; the driver and the agent's tools use it too. */
  change(goal: StoredGoal, changes: GoalChanges, alsoRecord?: (updated: GoalRecord) => void): GoalRecord {
    const event = this.deps.stores.transaction(() => {
      const written = this.write(goal, changes);
      alsoRecord?.(written.goal);
      return written;
    });
    this.deps.bus.publish(event);
    return event.goal;
  }

  /** Applies changes inside the caller's transaction; returns the event to publish once it commits. */
  write(goal: StoredGoal, changes: GoalChanges): { readonly kind: 'goal.changed'; readonly goal: GoalRecord } {
    const updated = this.deps.stores.goals.update(goal.goalId, changes, this.deps.clock.now());
    return { kind: 'goal.changed', goal: publicGoal(updated) };
  }
}

/** Why the goal may not go on, or null. */
export function limitReached(goal: GoalRecord): string | null {
  if (goal.tokenBudget !== null && goal.tokensUsed >= goal.tokenBudget) {
    return `The token budget is used up (${goal.tokensUsed} of ${goal.tokenBudget}).`;
  }
  if (goal.maxIterations !== null && goal.iterations >= goal.maxIterations) {
    return `The turn cap is reached (${goal.iterations} of ${goal.maxIterations}).`;
  }
  return null;
}

export function publicGoal(goal: StoredGoal): GoalRecord {
  const { consecutiveFailures: _failures, ...record } = goal;
  return record;
}

function missingSession() {
  return fail('not_found', 'That session does not exist.');
}
