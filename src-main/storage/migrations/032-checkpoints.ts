import type { Migration } from './migration';

/**
 * File checkpoints: a change set per turn (or per revert) naming the shadow-git commits before and
 * after it, and the files it changed with their writer. `pending` rows are written before the
 * checkpoint's commit and ref, so recovery can say whether a checkpoint cut short exists or not.
 */
export const migration032Checkpoints: Migration = {
  version: 32,
  name: 'checkpoints',
  up: `
    CREATE TABLE change_sets (
      change_set_id TEXT PRIMARY KEY,
      session_id TEXT NOT NULL REFERENCES sessions (session_id) ON DELETE CASCADE,
      turn_id TEXT NOT NULL,
      origin TEXT NOT NULL CHECK (origin IN ('turn', 'revert')),
      reverts_change_set_id TEXT,
      workspace_path TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('pending', 'open', 'complete', 'absent')),
      before_commit TEXT,
      after_commit TEXT,
      note TEXT,
      created_at INTEGER NOT NULL,
      completed_at INTEGER
    ) STRICT;
    CREATE INDEX change_sets_by_session ON change_sets (session_id, created_at);
    CREATE TABLE change_files (
      change_set_id TEXT NOT NULL REFERENCES change_sets (change_set_id) ON DELETE CASCADE,
      path TEXT NOT NULL,
      change TEXT NOT NULL CHECK (change IN ('created', 'modified', 'deleted')),
      added INTEGER,
      removed INTEGER,
      writer TEXT NOT NULL,
      PRIMARY KEY (change_set_id, path)
    ) STRICT;
  `,
};
