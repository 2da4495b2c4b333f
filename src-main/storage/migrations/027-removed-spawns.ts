import type { Migration } from './migration';

/**
 * Spawns whose child the person deleted: a spawn id remembered after its child's link is gone, so a
 * replayed `spawn_agent` (a resumed parent) does not start that child again. Kept while the parent is.
 */
export const migration027RemovedSpawns: Migration = {
  version: 27,
  name: 'removed spawns',
  up: `
    CREATE TABLE agent_removed_spawns (
      spawn_id TEXT PRIMARY KEY,
      parent_session_id TEXT NOT NULL REFERENCES sessions (session_id) ON DELETE CASCADE,
      child_session_id TEXT NOT NULL,
      removed_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX agent_removed_spawns_by_parent ON agent_removed_spawns (parent_session_id);
  `,
};
