import type { Migration } from './migration';

/** Sessions, turns, runs, the append-only ledger, its transcript projection, and queued follow-ups. */
export const migration001Initial: Migration = {
  version: 1,
  name: 'initial',
  up: `
    CREATE TABLE sessions (
      session_id TEXT PRIMARY KEY,
      title TEXT NOT NULL,
      title_source TEXT NOT NULL CHECK (title_source IN ('default', 'auto', 'user')),
      workspace_path TEXT,
      connection_id TEXT NOT NULL,
      model TEXT,
      permission_mode TEXT NOT NULL,
      archived INTEGER NOT NULL DEFAULT 0,
      revision INTEGER NOT NULL,
      next_position INTEGER NOT NULL DEFAULT 0,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX sessions_by_recency ON sessions (archived, updated_at DESC, session_id DESC);

    CREATE TABLE turns (
      session_id TEXT NOT NULL REFERENCES sessions (session_id) ON DELETE CASCADE,
      turn_id TEXT NOT NULL,
      ordinal INTEGER NOT NULL,
      origin TEXT NOT NULL,
      text TEXT NOT NULL,
      max_steps INTEGER NOT NULL,
      status TEXT NOT NULL,
      latest_run_id TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      PRIMARY KEY (session_id, turn_id)
    ) STRICT, WITHOUT ROWID;
    CREATE UNIQUE INDEX turns_by_ordinal ON turns (session_id, ordinal);
    CREATE INDEX turns_active ON turns (status) WHERE status IN ('running', 'waiting');

    CREATE TABLE runs (
      run_id TEXT PRIMARY KEY,
      session_id TEXT NOT NULL,
      turn_id TEXT NOT NULL,
      attempt INTEGER NOT NULL,
      kind TEXT NOT NULL,
      status TEXT NOT NULL,
      terminal_reason TEXT,
      error_code TEXT,
      error_message TEXT,
      started_at INTEGER NOT NULL,
      ended_at INTEGER,
      FOREIGN KEY (session_id, turn_id) REFERENCES turns (session_id, turn_id) ON DELETE CASCADE
    ) STRICT;
    CREATE UNIQUE INDEX runs_by_turn ON runs (session_id, turn_id, attempt);
    CREATE INDEX runs_active ON runs (status) WHERE status IN ('running', 'waiting');

    CREATE TABLE ledger (
      run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
      sequence INTEGER NOT NULL,
      kind TEXT NOT NULL,
      payload TEXT NOT NULL,
      recorded_at INTEGER NOT NULL,
      PRIMARY KEY (run_id, sequence)
    ) STRICT, WITHOUT ROWID;

    CREATE TABLE transcript_items (
      session_id TEXT NOT NULL REFERENCES sessions (session_id) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      item_id TEXT NOT NULL UNIQUE,
      turn_id TEXT NOT NULL,
      run_id TEXT NOT NULL,
      kind TEXT NOT NULL,
      text TEXT NOT NULL,
      state TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      PRIMARY KEY (session_id, position)
    ) STRICT;
    CREATE INDEX transcript_items_streaming ON transcript_items (run_id) WHERE state = 'streaming';

    CREATE TABLE queued_messages (
      session_id TEXT NOT NULL REFERENCES sessions (session_id) ON DELETE CASCADE,
      message_id TEXT NOT NULL,
      text TEXT NOT NULL,
      state TEXT NOT NULL,
      turn_id TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      PRIMARY KEY (session_id, message_id)
    ) STRICT;
    CREATE INDEX queued_messages_waiting ON queued_messages (session_id, created_at) WHERE state = 'queued';
  `,
};
