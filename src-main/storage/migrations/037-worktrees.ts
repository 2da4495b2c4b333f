import type { Migration } from './migration';

/**
 * Isolated worktrees: a session working in its own `git worktree` on a branch of its own. The row
 * outlives its session (no foreign key), so a worktree left behind by a removed session or a crash
 * is still known at the next start. `repo_root` is the checkout the worktree branched from (the
 * person's repository, or a parent session's worktree) and where merge back lands.
 */
export const migration037Worktrees: Migration = {
  version: 37,
  name: 'worktrees',
  up: `
    CREATE TABLE worktrees (
      worktree_id TEXT PRIMARY KEY,
      session_id TEXT NOT NULL,
      repo_root TEXT NOT NULL,
      base_branch TEXT NOT NULL,
      base_commit TEXT NOT NULL,
      branch TEXT NOT NULL,
      path TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('active', 'merged', 'discarded')),
      created_at INTEGER NOT NULL,
      ended_at INTEGER
    );
    CREATE UNIQUE INDEX worktrees_one_active_per_session ON worktrees (session_id) WHERE state = 'active';
    CREATE INDEX worktrees_by_state ON worktrees (state);
  `,
};
