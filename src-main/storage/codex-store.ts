import type { CodexTurnResult } from '../../src-shared/codex-model';
import type { Db } from './database';

export type { CodexTurnResult };

/** Where a Codex session stands: the thread it drives and the app-server instance last applied. */
export interface CodexResumePoint {
  readonly sessionId: string;
  readonly threadId: string;
  readonly instanceId: string | null;
  readonly lastSeq: number;
  readonly codexVersion: string | null;
  readonly updatedAt: number;
}

/**
 * Codex resume points and the applied-event register. An app-server instance numbers its events; an
 * event is applied at most once: `claim` answers false for a pair it has seen, and for an instance
 * that is no longer the session's (a replaced app-server's late events).
 */
export interface CodexStore {
  resumePoint(sessionId: string): CodexResumePoint | null;
  /** Binds the session to a thread and a (new) app-server instance. */
  bind(
    sessionId: string,
    binding: { threadId: string; instanceId: string; codexVersion: string | null },
    now: number,
  ): CodexResumePoint;
  /** Records (instance, seq) as applied; false when it was applied before or the instance was replaced. */
  claim(sessionId: string, instanceId: string, seq: number): boolean;
  /** Forgets the session's thread (a new one starts on the next turn). */
  forget(sessionId: string): void;
  /** Records a Codex turn's result (once per Codex turn; the first record stands). */
  recordTurnResult(result: CodexTurnResult): void;
  /** The results of a Cairn turn's Codex turns, oldest first. */
  turnResults(sessionId: string, turnId: string): CodexTurnResult[];
  /** A command the turn left running ended: its first `running` entry of that command takes how it ended. */
  settleCommand(codexTurnId: string, command: string, ending: { exitCode: number | null; status: string }): void;
}

interface ResultRow {
  codex_turn_id: string;
  session_id: string;
  turn_id: string;
  run_id: string;
  status: CodexTurnResult['status'];
  final_message: string;
  files_changed: string;
  commands: string;
  input_tokens: number;
  output_tokens: number;
  error_message: string | null;
  structured: string | null;
  created_at: number;
}

interface Row {
  session_id: string;
  thread_id: string;
  instance_id: string | null;
  last_seq: number;
  codex_version: string | null;
  updated_at: number;
}

function toResumePoint(row: Row): CodexResumePoint {
  return {
    sessionId: row.session_id,
    threadId: row.thread_id,
    instanceId: row.instance_id,
    lastSeq: row.last_seq,
    codexVersion: row.codex_version,
    updatedAt: row.updated_at,
  };
}

export function createCodexStore(db: Db): CodexStore {
  const get = db.prepare<[string], Row>('SELECT * FROM codex_checkpoints WHERE session_id = ?');
  const upsert = db.prepare(`
    INSERT INTO codex_checkpoints (session_id, thread_id, instance_id, last_seq, codex_version, updated_at)
      VALUES (@sessionId, @threadId, @instanceId, 0, @codexVersion, @now)
    ON CONFLICT (session_id) DO UPDATE SET thread_id = excluded.thread_id, instance_id = excluded.instance_id,
      last_seq = 0, codex_version = excluded.codex_version, updated_at = excluded.updated_at`);
  const insertApplied = db.prepare(
    'INSERT OR IGNORE INTO codex_applied_events (instance_id, seq, session_id) VALUES (?, ?, ?)',
  );
  const advance = db.prepare(
    'UPDATE codex_checkpoints SET last_seq = MAX(last_seq, ?) WHERE session_id = ? AND instance_id = ?',
  );
  const remove = db.prepare('DELETE FROM codex_checkpoints WHERE session_id = ?');
  const insertResult = db.prepare(`
    INSERT OR IGNORE INTO codex_turn_results (codex_turn_id, session_id, turn_id, run_id, status, final_message, files_changed, commands,
      input_tokens, output_tokens, error_message, structured, created_at)
    VALUES (@codexTurnId, @sessionId, @turnId, @runId, @status, @finalMessage, @filesChanged, @commands, @inputTokens, @outputTokens, @errorMessage, @structured, @createdAt)`);
  const commandsOf = db.prepare<[string], { commands: string }>(
    'SELECT commands FROM codex_turn_results WHERE codex_turn_id = ?',
  );
  const setCommands = db.prepare('UPDATE codex_turn_results SET commands = ? WHERE codex_turn_id = ?');
  const settleCommand = db.transaction(
    (codexTurnId: string, command: string, ending: { exitCode: number | null; status: string }) => {
      const row = commandsOf.get(codexTurnId);
      if (row === undefined) return;
      const commands = JSON.parse(row.commands) as CodexTurnResult['commands'][number][];
      const index = commands.findIndex((entry) => entry.command === command && entry.status === 'running');
      if (index < 0) return;
      commands[index] = { command, ...ending };
      setCommands.run(JSON.stringify(commands), codexTurnId);
    },
  );
  const resultsOfTurn = db.prepare<[string, string], ResultRow>(
    'SELECT * FROM codex_turn_results WHERE session_id = ? AND turn_id = ? ORDER BY created_at, rowid',
  );
  const claim = db.transaction((sessionId: string, instanceId: string, seq: number): boolean => {
    const row = get.get(sessionId);
    if (row === undefined || row.instance_id !== instanceId) return false;
    if (insertApplied.run(instanceId, seq, sessionId).changes === 0) return false;
    advance.run(seq, sessionId, instanceId);
    return true;
  });
  return {
    resumePoint(sessionId) {
      const row = get.get(sessionId);
      return row === undefined ? null : toResumePoint(row);
    },
    bind(sessionId, binding, now) {
      upsert.run({ sessionId, ...binding, now });
      const row = get.get(sessionId);
      if (row === undefined) throw new Error(`Codex resume point of ${sessionId} vanished`);
      return toResumePoint(row);
    },
    claim: (sessionId, instanceId, seq) => claim(sessionId, instanceId, seq),
    forget(sessionId) {
      remove.run(sessionId);
    },
    recordTurnResult(result) {
      insertResult.run({
        ...result,
        filesChanged: JSON.stringify(result.filesChanged),
        commands: JSON.stringify(result.commands),
        structured: result.structured === null ? null : JSON.stringify(result.structured),
      });
    },
    settleCommand: (codexTurnId, command, ending) => settleCommand(codexTurnId, command, ending),
    turnResults(sessionId, turnId) {
      return resultsOfTurn.all(sessionId, turnId).map((row) => ({
        codexTurnId: row.codex_turn_id,
        sessionId: row.session_id,
        turnId: row.turn_id,
        runId: row.run_id,
        status: row.status,
        finalMessage: row.final_message,
        filesChanged: JSON.parse(row.files_changed) as string[],
        commands: JSON.parse(row.commands) as CodexTurnResult['commands'],
        inputTokens: row.input_tokens,
        outputTokens: row.output_tokens,
        errorMessage: row.error_message,
        structured: row.structured === null ? null : (JSON.parse(row.structured) as CodexTurnResult['structured']),
        createdAt: row.created_at,
      }));
    },
  };
}
