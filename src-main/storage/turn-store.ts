import type {
  RunKind,
  RunStatus,
  RunSummary,
  TurnDetail,
  TurnOrigin,
  TurnSummary,
  TurnUsage,
} from '../../src-shared/model';
import type { Db } from './database';

export interface NewTurn {
  readonly sessionId: string;
  readonly turnId: string;
  readonly origin: TurnOrigin;
  readonly text: string;
  readonly maxSteps: number;
  readonly runId: string;
  readonly goalId?: string | null;
  readonly now: number;
}

export interface NewRun {
  readonly sessionId: string;
  readonly turnId: string;
  readonly runId: string;
  readonly kind: RunKind;
  readonly now: number;
}

export interface RunEnding {
  readonly status: Exclude<RunStatus, 'running'>;
  readonly terminalReason: string | null;
  readonly errorCode?: string | null;
  readonly errorMessage?: string | null;
  /** The paired device whose Stop ended it (its name then); absent for the desktop. */
  readonly stoppedFrom?: string | null;
  readonly now: number;
}

export interface RunLocator {
  readonly runId: string;
  readonly sessionId: string;
  readonly turnId: string;
  readonly status: RunStatus;
}

export interface TurnStore {
  /** Creates a turn with its first run, `running`. */
  insertTurn(turn: NewTurn): TurnSummary;
  /** Opens the next run of a turn, `running`, and makes it the turn's latest. */
  openRun(run: NewRun): RunSummary;
  /** Moves a run to a new status and, when it is the turn's latest run, the turn with it. */
  setRunStatus(runId: string, ending: RunEnding): void;
  getTurn(sessionId: string, turnId: string): TurnSummary | null;
  getTurnDetail(sessionId: string, turnId: string): TurnDetail | null;
  getRun(runId: string): RunLocator | null;
  /** The session's turn that is running or waiting, if any. */
  activeTurn(sessionId: string): TurnSummary | null;
  /** Every run still marked `running` (recovery reads this before serving). */
  runningRuns(): RunLocator[];
  turnsByIds(sessionId: string, turnIds: readonly string[]): TurnSummary[];
  /** The goal a turn works toward, if it is a goal turn. */
  goalOf(sessionId: string, turnId: string): string | null;
  /** The session's newest turn. */
  latestTurn(sessionId: string): TurnSummary | null;
}

interface TurnRow {
  session_id: string;
  turn_id: string;
  origin: TurnOrigin;
  text: string;
  max_steps: number;
  status: RunStatus;
  created_at: number;
  updated_at: number;
  run_id: string;
  attempt: number;
  kind: RunKind;
  run_status: RunStatus;
  terminal_reason: string | null;
  stopped_from: string | null;
  error_code: string | null;
  error_message: string | null;
  started_at: number;
  ended_at: number | null;
  usage_json: string;
}

type RunRow = Pick<
  TurnRow,
  | 'run_id'
  | 'attempt'
  | 'kind'
  | 'terminal_reason'
  | 'stopped_from'
  | 'error_code'
  | 'error_message'
  | 'started_at'
  | 'ended_at'
> & {
  status: RunStatus;
};

const TURN_SELECT = `
  SELECT t.session_id, t.turn_id, t.origin, t.text, t.max_steps, t.status, t.created_at, t.updated_at,
         r.run_id, r.attempt, r.kind, r.status AS run_status, r.terminal_reason, r.stopped_from, r.error_code,
         r.error_message, r.started_at, r.ended_at,
         (SELECT json_object('calls', COUNT(*), 'input', TOTAL(u.input_tokens), 'output', TOTAL(u.output_tokens),
                             'cost', CASE WHEN COUNT(u.cost_usd) = COUNT(*) THEN SUM(u.cost_usd) END)
          FROM usage_records u WHERE u.session_id = t.session_id AND u.turn_id = t.turn_id) AS usage_json
  FROM turns t JOIN runs r ON r.run_id = t.latest_run_id`;

function toRun(row: RunRow): RunSummary {
  return {
    runId: row.run_id,
    attempt: row.attempt,
    kind: row.kind,
    status: row.status,
    terminalReason: row.terminal_reason,
    ...(row.stopped_from === null ? {} : { stoppedFrom: row.stopped_from }),
    errorCode: row.error_code,
    errorMessage: row.error_message,
    startedAt: row.started_at,
    endedAt: row.ended_at,
  };
}

function toTurn(row: TurnRow): TurnSummary {
  return {
    sessionId: row.session_id,
    turnId: row.turn_id,
    origin: row.origin,
    text: row.text,
    status: row.status,
    maxSteps: row.max_steps,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    latestRun: toRun({ ...row, status: row.run_status }),
    usage: toUsage(row.usage_json),
  };
}

function toUsage(json: string): TurnUsage | null {
  const usage = JSON.parse(json) as { calls: number; input: number; output: number; cost: number | null };
  if (usage.calls === 0) return null;
  return { inputTokens: usage.input, outputTokens: usage.output, costUsd: usage.cost };
}

export function createTurnStore(db: Db): TurnStore {
  const nextOrdinal = db.prepare<[string], { next: number }>(
    'SELECT COALESCE(MAX(ordinal), 0) + 1 AS next FROM turns WHERE session_id = ?',
  );
  const insertTurn = db.prepare(`
    INSERT INTO turns (session_id, turn_id, ordinal, origin, text, max_steps, status, latest_run_id, goal_id, created_at, updated_at)
    VALUES (@sessionId, @turnId, @ordinal, @origin, @text, @maxSteps, 'running', @runId, @goalId, @now, @now)`);
  const insertRun = db.prepare(`
    INSERT INTO runs (run_id, session_id, turn_id, attempt, kind, status, started_at)
    VALUES (@runId, @sessionId, @turnId, @attempt, @kind, 'running', @now)`);
  const nextAttempt = db.prepare<[string, string], { next: number }>(
    'SELECT COALESCE(MAX(attempt), 0) + 1 AS next FROM runs WHERE session_id = ? AND turn_id = ?',
  );
  const pointTurnAt = db.prepare(
    "UPDATE turns SET latest_run_id = ?, status = 'running', updated_at = ? WHERE session_id = ? AND turn_id = ?",
  );
  const endRun = db.prepare(`
    UPDATE runs SET status = @status, terminal_reason = @terminalReason, stopped_from = @stoppedFrom, error_code = @errorCode,
                    error_message = @errorMessage, ended_at = CASE WHEN @status = 'waiting' THEN NULL ELSE @now END
    WHERE run_id = @runId`);
  const followRun = db.prepare('UPDATE turns SET status = @status, updated_at = @now WHERE latest_run_id = @runId');
  const getTurn = db.prepare<[string, string], TurnRow>(`${TURN_SELECT} WHERE t.session_id = ? AND t.turn_id = ?`);
  const runsOfTurn = db.prepare<[string, string], RunRow>(
    'SELECT * FROM runs WHERE session_id = ? AND turn_id = ? ORDER BY attempt',
  );
  const getRun = db.prepare<[string], { run_id: string; session_id: string; turn_id: string; status: RunStatus }>(
    'SELECT run_id, session_id, turn_id, status FROM runs WHERE run_id = ?',
  );
  const activeTurn = db.prepare<[string], TurnRow>(
    `${TURN_SELECT} WHERE t.session_id = ? AND t.status IN ('running', 'waiting') ORDER BY t.ordinal DESC LIMIT 1`,
  );
  // Read at every start: the IN term lets it search the partial index runs_active, where `status = 'running'`
  // alone read every run ever made.
  const runningRuns = db.prepare<[], { run_id: string; session_id: string; turn_id: string; status: RunStatus }>(
    "SELECT run_id, session_id, turn_id, status FROM runs WHERE status IN ('running', 'waiting') AND status = 'running'",
  );

  const toLocator = (row: { run_id: string; session_id: string; turn_id: string; status: RunStatus }): RunLocator => ({
    runId: row.run_id,
    sessionId: row.session_id,
    turnId: row.turn_id,
    status: row.status,
  });

  const goalOf = db.prepare<[string, string], { goal_id: string | null }>(
    'SELECT goal_id FROM turns WHERE session_id = ? AND turn_id = ?',
  );
  const latest = db.prepare<[string], TurnRow>(`${TURN_SELECT} WHERE t.session_id = ? ORDER BY t.ordinal DESC LIMIT 1`);

  const store: TurnStore = {
    goalOf(sessionId, turnId) {
      return goalOf.get(sessionId, turnId)?.goal_id ?? null;
    },
    latestTurn(sessionId) {
      const row = latest.get(sessionId);
      return row === undefined ? null : toTurn(row);
    },
    insertTurn(turn) {
      const ordinal = nextOrdinal.get(turn.sessionId)?.next ?? 1;
      insertTurn.run({ ...turn, goalId: turn.goalId ?? null, ordinal });
      insertRun.run({ ...turn, attempt: 1, kind: 'initial' });
      const created = store.getTurn(turn.sessionId, turn.turnId);
      if (created === null) throw new Error(`Turn ${turn.turnId} vanished after insert`);
      return created;
    },
    openRun(run) {
      const attempt = nextAttempt.get(run.sessionId, run.turnId)?.next ?? 1;
      insertRun.run({ ...run, attempt });
      pointTurnAt.run(run.runId, run.now, run.sessionId, run.turnId);
      const turn = store.getTurn(run.sessionId, run.turnId);
      if (turn === null) throw new Error(`Turn ${run.turnId} vanished after opening a run`);
      return turn.latestRun;
    },
    setRunStatus(runId, ending) {
      endRun.run({
        runId,
        status: ending.status,
        terminalReason: ending.terminalReason,
        stoppedFrom: ending.stoppedFrom ?? null,
        errorCode: ending.errorCode ?? null,
        errorMessage: ending.errorMessage ?? null,
        now: ending.now,
      });
      followRun.run({ runId, status: ending.status, now: ending.now });
    },
    getTurn(sessionId, turnId) {
      const row = getTurn.get(sessionId, turnId);
      return row === undefined ? null : toTurn(row);
    },
    getTurnDetail(sessionId, turnId) {
      const turn = store.getTurn(sessionId, turnId);
      if (turn === null) return null;
      return { ...turn, runs: runsOfTurn.all(sessionId, turnId).map(toRun) };
    },
    getRun(runId) {
      const row = getRun.get(runId);
      return row === undefined ? null : toLocator(row);
    },
    activeTurn(sessionId) {
      const row = activeTurn.get(sessionId);
      return row === undefined ? null : toTurn(row);
    },
    runningRuns() {
      return runningRuns.all().map(toLocator);
    },
    turnsByIds(sessionId, turnIds) {
      if (turnIds.length === 0) return [];
      const placeholders = turnIds.map(() => '?').join(', ');
      return db
        .prepare<string[], TurnRow>(
          `${TURN_SELECT} WHERE t.session_id = ? AND t.turn_id IN (${placeholders}) ORDER BY t.ordinal`,
        )
        .all(sessionId, ...turnIds)
        .map(toTurn);
    },
  };
  return store;
}
