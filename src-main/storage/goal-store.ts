import type { GoalRecord, GoalStatus } from '../../src-shared/goal-model';
import type { Db } from './database';

export interface NewGoal {
  readonly goalId: string;
  readonly sessionId: string;
  readonly objective: string;
  readonly tokenBudget: number | null;
  readonly maxIterations: number | null;
  readonly createdBy: GoalRecord['createdBy'];
  readonly now: number;
}

export interface GoalChanges {
  readonly status?: GoalStatus;
  readonly lastReason?: string | null;
  readonly tokenBudget?: number | null;
  readonly maxIterations?: number | null;
  readonly cleared?: boolean;
  /** Added to the running totals. */
  readonly addTokens?: number;
  readonly addIterations?: number;
  readonly addTimeMs?: number;
  readonly consecutiveFailures?: number;
}

export interface StoredGoal extends GoalRecord {
  readonly consecutiveFailures: number;
}

/** Goals per session. Every change bumps the revision (optimistic concurrency for the person's edits). */
export interface GoalStore {
  insert(goal: NewGoal): StoredGoal;
  get(goalId: string): StoredGoal | null;
  /** The session's current goal: the one not cleared. */
  current(sessionId: string): StoredGoal | null;
  history(sessionId: string): StoredGoal[];
  update(goalId: string, changes: GoalChanges, now: number): StoredGoal;
  /** Sessions whose current goal is active (the driver's work list at startup). */
  activeSessions(): string[];
  /** A goal.control command recorded by its client-chosen id: what it asked and the goal it left. */
  control(controlId: string): { request: unknown; goal: unknown } | null;
  recordControl(control: { controlId: string; goalId: string; request: unknown; goal: unknown; now: number }): void;
}

interface Row {
  goal_id: string;
  session_id: string;
  objective: string;
  status: GoalStatus;
  token_budget: number | null;
  tokens_used: number;
  max_iterations: number | null;
  iterations: number;
  time_used_ms: number;
  consecutive_failures: number;
  revision: number;
  last_reason: string | null;
  cleared: number;
  created_by: GoalRecord['createdBy'];
  created_at: number;
  updated_at: number;
}

function toGoal(row: Row): StoredGoal {
  return {
    goalId: row.goal_id,
    sessionId: row.session_id,
    objective: row.objective,
    status: row.status,
    tokenBudget: row.token_budget,
    tokensUsed: row.tokens_used,
    maxIterations: row.max_iterations,
    iterations: row.iterations,
    timeUsedSeconds: Math.round(row.time_used_ms / 1000),
    consecutiveFailures: row.consecutive_failures,
    revision: row.revision,
    lastReason: row.last_reason,
    cleared: row.cleared === 1,
    createdBy: row.created_by,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function createGoalStore(db: Db): GoalStore {
  const insert = db.prepare(`
    INSERT INTO goals (goal_id, session_id, objective, status, token_budget, max_iterations, revision, created_by, created_at, updated_at)
    VALUES (@goalId, @sessionId, @objective, 'active', @tokenBudget, @maxIterations, 1, @createdBy, @now, @now)`);
  const get = db.prepare<[string], Row>('SELECT * FROM goals WHERE goal_id = ?');
  const current = db.prepare<[string], Row>('SELECT * FROM goals WHERE session_id = ? AND cleared = 0');
  const history = db.prepare<[string], Row>(
    'SELECT * FROM goals WHERE session_id = ? ORDER BY created_at DESC, goal_id DESC',
  );
  const update = db.prepare(`
    UPDATE goals SET status = @status, last_reason = @lastReason, token_budget = @tokenBudget, max_iterations = @maxIterations,
      cleared = @cleared, tokens_used = tokens_used + @addTokens, iterations = iterations + @addIterations,
      time_used_ms = time_used_ms + @addTimeMs, consecutive_failures = @consecutiveFailures,
      revision = revision + 1, updated_at = @now
    WHERE goal_id = @goalId`);
  const getControl = db.prepare<[string], { request: string; goal: string }>(
    'SELECT request, goal FROM goal_controls WHERE control_id = ?',
  );
  const insertControl = db.prepare(
    'INSERT INTO goal_controls (control_id, goal_id, request, goal, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  const active = db.prepare<[], { session_id: string }>(
    "SELECT session_id FROM goals WHERE cleared = 0 AND status = 'active'",
  );

  const store: GoalStore = {
    insert(goal) {
      insert.run(goal);
      const stored = store.get(goal.goalId);
      if (stored === null) throw new Error(`Goal ${goal.goalId} vanished after insert`);
      return stored;
    },
    get(goalId) {
      const row = get.get(goalId);
      return row === undefined ? null : toGoal(row);
    },
    current(sessionId) {
      const row = current.get(sessionId);
      return row === undefined ? null : toGoal(row);
    },
    history(sessionId) {
      return history.all(sessionId).map(toGoal);
    },
    control(controlId) {
      const row = getControl.get(controlId);
      return row === undefined
        ? null
        : { request: JSON.parse(row.request) as unknown, goal: JSON.parse(row.goal) as unknown };
    },
    recordControl({ controlId, goalId, request, goal, now }) {
      insertControl.run(controlId, goalId, JSON.stringify(request), JSON.stringify(goal), now);
    },
    update(goalId, changes, now) {
      const goal = store.get(goalId);
      if (goal === null) throw new Error(`Goal ${goalId} does not exist`);
      update.run({
        goalId,
        status: changes.status ?? goal.status,
        lastReason: changes.lastReason === undefined ? goal.lastReason : changes.lastReason,
        tokenBudget: changes.tokenBudget === undefined ? goal.tokenBudget : changes.tokenBudget,
        maxIterations: changes.maxIterations === undefined ? goal.maxIterations : changes.maxIterations,
        cleared: (changes.cleared ?? goal.cleared) ? 1 : 0,
        addTokens: changes.addTokens ?? 0,
        addIterations: changes.addIterations ?? 0,
        addTimeMs: changes.addTimeMs ?? 0,
        consecutiveFailures: changes.consecutiveFailures ?? goal.consecutiveFailures,
        now,
      });
      const updated = store.get(goalId);
      if (updated === null) throw new Error(`Goal ${goalId} vanished`);
      return updated;
    },
    activeSessions() {
      return active.all().map((row) => row.session_id);
    },
  };
  return store;
}
