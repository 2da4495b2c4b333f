import type { Migration } from './migration';

/**
 * Codex threads and their owners: a thread belongs to the session that started it, and a session
 * never resumes another's. Per session, the thread that could not be resumed, why, and what the
 * person chose (recorded before a new thread starts).
 */
export const migration028CodexThreads: Migration = {
  version: 28,
  name: 'codex-threads',
  up: `
    CREATE TABLE codex_threads (
      thread_id TEXT PRIMARY KEY,
      session_id TEXT NOT NULL,
      created_at INTEGER NOT NULL
    ) STRICT;
    INSERT OR IGNORE INTO codex_threads (thread_id, session_id, created_at)
      SELECT thread_id, session_id, updated_at FROM codex_checkpoints ORDER BY updated_at;

    CREATE TABLE codex_thread_problems (
      session_id TEXT PRIMARY KEY,
      thread_id TEXT NOT NULL,
      turn_id TEXT NOT NULL,
      reason TEXT NOT NULL,
      noticed_at INTEGER NOT NULL,
      choice TEXT CHECK (choice IN ('new_thread', 'retry')),
      chosen_at INTEGER,
      resolved INTEGER NOT NULL DEFAULT 0
    ) STRICT;
  `,
};
