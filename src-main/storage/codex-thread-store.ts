import type { CodexThreadChoice, CodexThreadProblem } from '../../src-shared/codex-model';
import type { Db } from './database';

export type { CodexThreadProblem };

/**
 * Which session owns each Codex thread, and the thread problem of each session: the thread that
 * could not be resumed and what the person chose. A choice is recorded before it is acted on.
 */
export interface CodexThreadStore {
  /** The session that owns the thread, or null when Cairn never recorded it. */
  owner(threadId: string): string | null;
  /** Records the session as the thread's owner; false when another session owns it already. */
  own(threadId: string, sessionId: string, now: number): boolean;
  problem(sessionId: string): CodexThreadProblem | null;
  /** The thread could not be resumed: recorded (again) with a fresh reason; any earlier choice is open again. */
  noteProblem(
    problem: { sessionId: string; threadId: string; turnId: string; reason: string },
    now: number,
  ): CodexThreadProblem;
  /** Records the person's choice on the session's open problem with `threadId`; null when there is none. */
  choose(sessionId: string, threadId: string, choice: CodexThreadChoice, now: number): CodexThreadProblem | null;
  /**
   * The new thread `threadId` started in place of the problem's: the problem stays as a record,
   * resolved, and the new thread owes its first turn a summary of Cairn's record (one write).
   */
  resolve(sessionId: string, threadId: string): void;
  /** Whether the thread still owes its first turn the summary (a turn on it has not started yet). */
  summaryDue(threadId: string): boolean;
  /** A turn started on the thread with the summary: it is owed no more. */
  summarySent(threadId: string): void;
  /** The thread was resumed after all: the problem is gone. */
  clear(sessionId: string): void;
}

interface ProblemRow {
  session_id: string;
  thread_id: string;
  turn_id: string;
  reason: string;
  noticed_at: number;
  choice: CodexThreadChoice | null;
  chosen_at: number | null;
  resolved: number;
}

function toProblem(row: ProblemRow): CodexThreadProblem {
  return {
    sessionId: row.session_id,
    threadId: row.thread_id,
    turnId: row.turn_id,
    reason: row.reason,
    noticedAt: row.noticed_at,
    choice: row.choice,
    chosenAt: row.chosen_at,
    resolved: row.resolved === 1,
  };
}

export function createCodexThreadStore(db: Db): CodexThreadStore {
  const ownerOf = db.prepare<[string], string>('SELECT session_id FROM codex_threads WHERE thread_id = ?').pluck();
  const insertOwner = db.prepare(
    'INSERT OR IGNORE INTO codex_threads (thread_id, session_id, created_at) VALUES (?, ?, ?)',
  );
  const getProblem = db.prepare<[string], ProblemRow>('SELECT * FROM codex_thread_problems WHERE session_id = ?');
  const upsertProblem = db.prepare(`
    INSERT INTO codex_thread_problems (session_id, thread_id, turn_id, reason, noticed_at, choice, chosen_at, resolved)
      VALUES (@sessionId, @threadId, @turnId, @reason, @now, NULL, NULL, 0)
    ON CONFLICT (session_id) DO UPDATE SET thread_id = excluded.thread_id, turn_id = excluded.turn_id, reason = excluded.reason,
      noticed_at = excluded.noticed_at, choice = NULL, chosen_at = NULL, resolved = 0`);
  const setChoice = db.prepare(
    'UPDATE codex_thread_problems SET choice = ?, chosen_at = ? WHERE session_id = ? AND thread_id = ? AND resolved = 0',
  );
  const setResolved = db.prepare('UPDATE codex_thread_problems SET resolved = 1 WHERE session_id = ?');
  const remove = db.prepare('DELETE FROM codex_thread_problems WHERE session_id = ?');
  const setSummaryDue = db.prepare('UPDATE codex_threads SET summary_due = ? WHERE thread_id = ?');
  const getSummaryDue = db
    .prepare<[string], number>('SELECT summary_due FROM codex_threads WHERE thread_id = ?')
    .pluck();
  const resolve = db.transaction((sessionId: string, threadId: string) => {
    setResolved.run(sessionId);
    setSummaryDue.run(1, threadId);
  });
  const problem = (sessionId: string) => {
    const row = getProblem.get(sessionId);
    return row === undefined ? null : toProblem(row);
  };
  return {
    owner: (threadId) => ownerOf.get(threadId) ?? null,
    own(threadId, sessionId, now) {
      insertOwner.run(threadId, sessionId, now);
      return ownerOf.get(threadId) === sessionId;
    },
    problem,
    noteProblem(given, now) {
      upsertProblem.run({ ...given, now });
      const noted = problem(given.sessionId);
      if (noted === null) throw new Error(`Codex thread problem of ${given.sessionId} vanished`);
      return noted;
    },
    choose(sessionId, threadId, choice, now) {
      setChoice.run(choice, now, sessionId, threadId);
      const chosen = problem(sessionId);
      return chosen !== null && chosen.threadId === threadId && !chosen.resolved ? chosen : null;
    },
    resolve(sessionId, threadId) {
      resolve(sessionId, threadId);
    },
    summaryDue: (threadId) => getSummaryDue.get(threadId) === 1,
    summarySent(threadId) {
      setSummaryDue.run(0, threadId);
    },
    clear(sessionId) {
      remove.run(sessionId);
    },
  };
}
