import type { ChangeEventBody } from '../../../src-shared/events';
import type { RunStatus } from '../../../src-shared/model';
import type { Stores } from '../../storage/stores';
import type { Logger } from '../ports/ports';
import type { RunIdentity } from '../turns/run-lifecycle';
import type { TurnService } from '../turns/turn-service';
import { goalTurnPrompt } from '../contract/goal-prompt';
import { limitReached, type GoalService } from './goal-service';

export interface GoalDriverDeps {
  readonly stores: Stores;
  readonly logger: Logger;
  readonly goals: () => GoalService;
  readonly turns: () => TurnService;
}

/** Consecutive failed goal turns after which the goal is blocked. */
export const MAX_GOAL_FAILURES = 3;

/**
 * Keeps active goals moving: while a session is idle and its goal active, it starts the next goal
 * turn (origin `goal`) — after any message of the person's — and accounts each goal turn's tokens,
 * iterations and time, setting the limit statuses. A waiting interaction holds the goal; Stop pauses it.
 */
export class GoalDriver {
  constructor(private readonly deps: GoalDriverDeps) {}

  /** Starts the next goal turn if the session is idle and its goal active and within limits. */
  poke(sessionId: string): void {
    const { stores } = this.deps;
    const goal = stores.goals.current(sessionId);
    if (goal === null || goal.status !== 'active') return;
    const session = stores.sessions.get(sessionId);
    if (session === null || session.archived) return;
    if (stores.turns.activeTurn(sessionId) !== null) return; // running, or waiting for the person
    if (stores.queue.nextQueued(sessionId) !== null) {
      this.deps.turns().drainQueue(sessionId); // the person's own message goes first
      return;
    }
    const limit = limitReached(goal);
    if (limit !== null) {
      const status =
        goal.tokenBudget !== null && goal.tokensUsed >= goal.tokenBudget ? 'budgetLimited' : 'iterationLimited';
      this.deps.goals().change(goal, { status, lastReason: limit });
      return;
    }
    const latest = stores.turns.latestTurn(sessionId);
    if (
      latest !== null &&
      latest.status === 'interrupted' &&
      stores.turns.goalOf(sessionId, latest.turnId) === goal.goalId
    ) {
      // The app stopped mid goal turn: continue it (resume, not retry).
      const resumed = this.deps.turns().resume(sessionId, latest.turnId);
      if (!resumed.ok && resumed.error.code !== 'host_draining')
        this.deps.logger.warn('Could not resume an interrupted goal turn', { sessionId, error: resumed.error.message });
      return;
    }
    const started = this.deps.turns().start({
      sessionId,
      turnId: this.freshTurnId(sessionId, `goal-${goal.goalId}-${goal.iterations + 1}-${goal.revision}`),
      text: goalTurnPrompt(goal),
      origin: 'goal',
      goalId: goal.goalId,
      titleHint: goal.objective,
    });
    // While the host shuts down nothing starts; the goal stays active and goes on after the restart.
    // A damaged database refuses it too: the goal goes on once the database is salvaged.
    if (started.ok || started.error.code === 'host_draining' || started.error.code === 'storage_damaged') return;
    // Anything else would leave the goal active with nothing running: settle it with the reason instead.
    this.deps.logger.warn('Could not start a goal turn', { sessionId, error: started.error.message });
    this.deps
      .goals()
      .change(goal, { status: 'blocked', lastReason: `The next goal turn could not start: ${started.error.message}` });
  }

  /**
   * The id for the next goal turn. It is normally derived from the goal's count and revision, so a
   * replayed poke cannot start the same turn twice; but a crash between a goal turn's end and its
   * accounting leaves a turn that already holds that id — starting it again would be a no-op and the
   * goal would stall, so the next free suffix is taken instead.
   */
  private freshTurnId(sessionId: string, base: string): string {
    let turnId = base;
    for (let attempt = 2; this.deps.stores.turns.getTurn(sessionId, turnId) !== null; attempt += 1)
      turnId = `${base}-${attempt}`;
    return turnId;
  }

  /**
   * Accounts a finished run of a goal turn (tokens, time, the turn count, failure statuses). Runs
   * inside the transaction that ends the run, so the run's end and its goal's count are one commit: a
   * crash can never leave a completed goal turn uncounted (the next turn id would repeat it and the
   * goal would stall). Returns the events to publish once that transaction commits.
   */
  accountRunEnd(run: RunIdentity, status: RunStatus): ChangeEventBody[] {
    const { stores } = this.deps;
    const goalId = stores.turns.goalOf(run.sessionId, run.turnId);
    const goal = goalId === null ? null : stores.goals.get(goalId);
    if (goal === null || goal.cleared) return [];
    const goals = this.deps.goals();
    const turn = stores.turns.getTurnDetail(run.sessionId, run.turnId);
    const runSummary = turn?.runs.find((candidate) => candidate.runId === run.runId);
    const tokens = stores.usage.tokensOfRun(run.runId);
    const timeMs = runSummary === undefined ? 0 : (runSummary.endedAt ?? runSummary.startedAt) - runSummary.startedAt;
    const turnEnded = status === 'completed' || status === 'failed';
    const base = { addTokens: tokens, addTimeMs: timeMs, addIterations: turnEnded ? 1 : 0 };
    if (status === 'cancelled' && goal.status === 'active') {
      return [goals.write(goal, { ...base, status: 'paused', lastReason: 'Stopped by you' })];
    }
    if (status === 'failed' && goal.status === 'active') {
      const failures = goal.consecutiveFailures + 1;
      const error = runSummary?.errorMessage ?? 'The goal turn failed.';
      if (runSummary?.errorCode === 'usage_limit') {
        return [
          goals.write(goal, { ...base, status: 'usageLimited', lastReason: error, consecutiveFailures: failures }),
        ];
      }
      if (failures >= MAX_GOAL_FAILURES) {
        return [
          goals.write(goal, {
            ...base,
            status: 'blocked',
            lastReason: `${failures} goal turns failed in a row. Last error: ${error}`,
            consecutiveFailures: failures,
          }),
        ];
      }
      return [goals.write(goal, { ...base, consecutiveFailures: failures, lastReason: `Turn failed: ${error}` })];
    }
    return [goals.write(goal, { ...base, ...(status === 'completed' ? { consecutiveFailures: 0 } : {}) })];
  }

  /** After a run's end (and its accounting) committed: look at the session again. */
  onRunEnded(run: RunIdentity): void {
    this.poke(run.sessionId);
  }

  /** After startup: every active goal gets looked at (interrupted goal turns resume). */
  resumeAll(): void {
    for (const sessionId of this.deps.stores.goals.activeSessions()) this.poke(sessionId);
  }
}
