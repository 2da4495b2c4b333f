import type { FinalShellRunStatus, ShellRunRecord, ShellRunStatus } from '../../src-shared/shell-run-model';
import type { Db } from './database';

export interface NewShellRun {
  readonly shellRunId: string;
  readonly sessionId: string;
  readonly turnId: string;
  readonly runId: string;
  readonly toolCallId: string | null;
  readonly command: string;
  readonly cwd: string;
  readonly now: number;
}

/** The tails of both streams as they stand. */
export interface ShellRunOutput {
  readonly stdoutTail: string;
  readonly stderrTail: string;
  readonly stdoutTruncated: boolean;
  readonly stderrTruncated: boolean;
}

export interface ShellRunEnding extends ShellRunOutput {
  readonly status: Exclude<FinalShellRunStatus, 'orphaned'>;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly failureMessage: string | null;
  readonly now: number;
}

/**
 * Shell runs, one row per run_shell process. A row is written `starting` before the process is
 * spawned, so a crash at any point leaves a row that startup recovery can mark `orphaned`. Only live
 * rows (`starting`, `running`) change; a final row is history. Changing a final row is a bug: it throws.
 */
export interface ShellRunStore {
  insert(run: NewShellRun): ShellRunRecord;
  get(shellRunId: string): ShellRunRecord | null;
  /**
   * `starting` → `running`, with the process id (which is also its process group id) and its start
   * identity (see process-identity.ts; null when it could not be read). The pid is null for a
   * command an agent runs in its own process tree (Codex), which Cairn never signals.
   */
  markRunning(shellRunId: string, pid: number | null, processStart?: string | null): ShellRunRecord;
  /** Saves the output tails of a live run, so a crash keeps what it had printed. */
  recordOutput(shellRunId: string, output: ShellRunOutput): ShellRunRecord;
  /** A live run ends: `exited`, `killed` or `timed_out`, with its exit, signal and final tails. */
  finish(shellRunId: string, ending: ShellRunEnding): ShellRunRecord;
  /** A session's runs, newest first. */
  listBySession(sessionId: string, options?: { limit?: number }): ShellRunRecord[];
  /** Rows still `starting` or `running` (at startup: the ones a dead host left), with their recorded start identity. */
  live(): Array<{ readonly run: ShellRunRecord; readonly processStart: string | null }>;
  /** The recorded start identity of a run's process, or null. */
  processStart(shellRunId: string): string | null;
  /** A live row the host lost its handle to becomes `orphaned`, with what happened to its process. */
  markOrphaned(shellRunId: string, message: string, now: number): ShellRunRecord;
  /** What became of an orphaned run's process later (the person stopped it). */
  noteOrphan(shellRunId: string, message: string): ShellRunRecord;
}

interface Row {
  shell_run_id: string;
  session_id: string;
  turn_id: string;
  run_id: string;
  tool_call_id: string | null;
  command: string;
  cwd: string;
  status: ShellRunStatus;
  exit_code: number | null;
  signal: string | null;
  pid: number | null;
  started_at: number;
  ended_at: number | null;
  stdout_tail: string;
  stderr_tail: string;
  stdout_truncated: number;
  stderr_truncated: number;
  failure_message: string | null;
  process_start: string | null;
}

function toRecord(row: Row): ShellRunRecord {
  return {
    shellRunId: row.shell_run_id,
    sessionId: row.session_id,
    turnId: row.turn_id,
    runId: row.run_id,
    toolCallId: row.tool_call_id,
    command: row.command,
    cwd: row.cwd,
    status: row.status,
    exitCode: row.exit_code,
    signal: row.signal,
    pid: row.pid,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    stdoutTail: row.stdout_tail,
    stderrTail: row.stderr_tail,
    stdoutTruncated: row.stdout_truncated === 1,
    stderrTruncated: row.stderr_truncated === 1,
    failureMessage: row.failure_message,
  };
}

const LIVE = "status IN ('starting', 'running')";

function outputParams(output: ShellRunOutput) {
  return {
    stdoutTail: output.stdoutTail,
    stderrTail: output.stderrTail,
    stdoutTruncated: output.stdoutTruncated ? 1 : 0,
    stderrTruncated: output.stderrTruncated ? 1 : 0,
  };
}

export function createShellRunStore(db: Db): ShellRunStore {
  const insert = db.prepare(`
    INSERT INTO shell_runs (shell_run_id, session_id, turn_id, run_id, tool_call_id, command, cwd, status, started_at)
    VALUES (@shellRunId, @sessionId, @turnId, @runId, @toolCallId, @command, @cwd, 'starting', @now)`);
  const get = db.prepare<[string], Row>('SELECT * FROM shell_runs WHERE shell_run_id = ?');
  const markRunning = db.prepare(
    "UPDATE shell_runs SET status = 'running', pid = @pid, process_start = @processStart WHERE shell_run_id = @shellRunId AND status = 'starting'",
  );
  const recordOutput = db.prepare(`
    UPDATE shell_runs SET stdout_tail = @stdoutTail, stderr_tail = @stderrTail,
      stdout_truncated = @stdoutTruncated, stderr_truncated = @stderrTruncated
    WHERE shell_run_id = @shellRunId AND ${LIVE}`);
  const finish = db.prepare(`
    UPDATE shell_runs SET status = @status, exit_code = @exitCode, signal = @signal, ended_at = @now,
      stdout_tail = @stdoutTail, stderr_tail = @stderrTail,
      stdout_truncated = @stdoutTruncated, stderr_truncated = @stderrTruncated, failure_message = @failureMessage
    WHERE shell_run_id = @shellRunId AND ${LIVE}`);
  const listBySession = db.prepare<[string, number], Row>(
    'SELECT * FROM shell_runs WHERE session_id = ? ORDER BY started_at DESC, shell_run_id DESC LIMIT ?',
  );
  const live = db.prepare<[], Row>(`SELECT * FROM shell_runs WHERE ${LIVE} ORDER BY started_at, shell_run_id`);
  const markOrphaned = db.prepare(`
    UPDATE shell_runs SET status = 'orphaned', failure_message = @message, ended_at = @now
    WHERE shell_run_id = @shellRunId AND ${LIVE}`);
  const noteOrphan = db.prepare(
    "UPDATE shell_runs SET failure_message = @message WHERE shell_run_id = @shellRunId AND status = 'orphaned'",
  );

  const reread = (shellRunId: string, changed: number, action: string): ShellRunRecord => {
    const row = get.get(shellRunId);
    if (row === undefined) throw new Error(`Shell run ${shellRunId} does not exist`);
    if (changed === 0) throw new Error(`Shell run ${shellRunId} cannot ${action}: it is ${row.status}`);
    return toRecord(row);
  };

  return {
    insert(run) {
      insert.run(run);
      return reread(run.shellRunId, 1, 'be read back');
    },
    get(shellRunId) {
      const row = get.get(shellRunId);
      return row === undefined ? null : toRecord(row);
    },
    markRunning(shellRunId, pid, processStart = null) {
      return reread(shellRunId, markRunning.run({ shellRunId, pid, processStart }).changes, 'start running');
    },
    recordOutput(shellRunId, output) {
      return reread(shellRunId, recordOutput.run({ shellRunId, ...outputParams(output) }).changes, 'record output');
    },
    finish(shellRunId, ending) {
      const changed = finish.run({
        shellRunId,
        status: ending.status,
        exitCode: ending.exitCode,
        signal: ending.signal,
        now: ending.now,
        failureMessage: ending.failureMessage,
        ...outputParams(ending),
      }).changes;
      return reread(shellRunId, changed, `end as ${ending.status}`);
    },
    listBySession(sessionId, options = {}) {
      return listBySession.all(sessionId, options.limit ?? 100).map(toRecord);
    },
    live() {
      return live.all().map((row) => ({ run: toRecord(row), processStart: row.process_start }));
    },
    processStart(shellRunId) {
      return get.get(shellRunId)?.process_start ?? null;
    },
    markOrphaned(shellRunId, message, now) {
      return reread(shellRunId, markOrphaned.run({ shellRunId, message, now }).changes, 'become orphaned');
    },
    noteOrphan(shellRunId, message) {
      return reread(shellRunId, noteOrphan.run({ shellRunId, message }).changes, 'take a note as an orphan');
    },
  };
}
