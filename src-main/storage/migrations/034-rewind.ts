import type { Migration } from './migration';

/**
 * Rewind: a branch can be a `rewind` (the conversation before a turn, made without running a turn),
 * and a change set can be the rewind's files. SQLite cannot widen a CHECK in place, so both tables
 * are rebuilt with their rows; `change_files` is rebuilt with `change_sets` (its rows would otherwise
 * go with the old table's cascade).
 */
export const migration034Rewind: Migration = {
  version: 34,
  name: 'rewind',
  up: `
    CREATE TABLE session_branches_new (
      session_id TEXT PRIMARY KEY REFERENCES sessions (session_id) ON DELETE CASCADE,
      request_id TEXT NOT NULL UNIQUE,
      source_session_id TEXT NOT NULL,
      source_item_id TEXT NOT NULL,
      source_turn_id TEXT NOT NULL,
      cut_position INTEGER NOT NULL,
      cut_ordinal INTEGER NOT NULL,
      mode TEXT NOT NULL CHECK (mode IN ('edit', 'regenerate', 'rewind')),
      text TEXT NOT NULL,
      turn_id TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('copying', 'ready')),
      copied_through INTEGER NOT NULL,
      created_at INTEGER NOT NULL
    ) STRICT;
    INSERT INTO session_branches_new SELECT session_id, request_id, source_session_id, source_item_id, source_turn_id, cut_position,
      cut_ordinal, mode, text, turn_id, state, copied_through, created_at FROM session_branches;
    DROP TABLE session_branches;
    ALTER TABLE session_branches_new RENAME TO session_branches;
    CREATE INDEX session_branches_by_source ON session_branches (source_session_id, created_at);
    CREATE INDEX session_branches_copying ON session_branches (state) WHERE state = 'copying';

    CREATE TABLE change_sets_new (
      change_set_id TEXT PRIMARY KEY,
      session_id TEXT NOT NULL REFERENCES sessions (session_id) ON DELETE CASCADE,
      turn_id TEXT NOT NULL,
      origin TEXT NOT NULL CHECK (origin IN ('turn', 'revert', 'rewind')),
      reverts_change_set_id TEXT,
      workspace_path TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('pending', 'open', 'complete', 'absent')),
      before_commit TEXT,
      after_commit TEXT,
      note TEXT,
      created_at INTEGER NOT NULL,
      completed_at INTEGER
    ) STRICT;
    CREATE TABLE change_files_new (
      change_set_id TEXT NOT NULL REFERENCES change_sets_new (change_set_id) ON DELETE CASCADE,
      path TEXT NOT NULL,
      change TEXT NOT NULL CHECK (change IN ('created', 'modified', 'deleted')),
      added INTEGER,
      removed INTEGER,
      writer TEXT NOT NULL,
      PRIMARY KEY (change_set_id, path)
    ) STRICT;
    INSERT INTO change_sets_new SELECT change_set_id, session_id, turn_id, origin, reverts_change_set_id, workspace_path, status,
      before_commit, after_commit, note, created_at, completed_at FROM change_sets ORDER BY rowid;
    INSERT INTO change_files_new SELECT change_set_id, path, change, added, removed, writer FROM change_files;
    DROP TABLE change_files;
    DROP TABLE change_sets;
    ALTER TABLE change_sets_new RENAME TO change_sets;
    ALTER TABLE change_files_new RENAME TO change_files;
    CREATE INDEX change_sets_by_session ON change_sets (session_id, created_at);
  `,
};
