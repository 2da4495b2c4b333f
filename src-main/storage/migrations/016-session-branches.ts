import type { Migration } from './migration';

/**
 * Branches: which session a branch copies, from which message, and how far the copy got. A branch
 * row is written with its (empty) session; the conversation is then copied in chunks, and `state`
 * turns `ready` in the same transaction as the last chunk. A copy a crash interrupted is finished (or,
 * its source gone, removed) at the next start.
 */
export const migration016SessionBranches: Migration = {
  version: 16,
  name: 'session-branches',
  up: `
    CREATE TABLE session_branches (
      session_id TEXT PRIMARY KEY REFERENCES sessions (session_id) ON DELETE CASCADE,
      request_id TEXT NOT NULL UNIQUE,
      source_session_id TEXT NOT NULL,
      source_item_id TEXT NOT NULL,
      source_turn_id TEXT NOT NULL,
      -- The copy takes the source's items before this position (the start of the branched turn).
      cut_position INTEGER NOT NULL,
      cut_ordinal INTEGER NOT NULL,
      mode TEXT NOT NULL CHECK (mode IN ('edit', 'regenerate')),
      -- What the branch runs once copied: the edited message, or the regenerated request.
      text TEXT NOT NULL,
      turn_id TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('copying', 'ready')),
      -- The last source position copied so far (-1: none yet).
      copied_through INTEGER NOT NULL,
      created_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX session_branches_by_source ON session_branches (source_session_id, created_at);
    CREATE INDEX session_branches_copying ON session_branches (state) WHERE state = 'copying';
  `,
};
