import type { Migration } from './migration';

/**
 * What removed sessions leave behind to delete. Which sessions use which offloaded output (`<data>/context-offload/<handle>.txt`, shared by content).
 * When a session's last use of a handle goes (its session removed, by cascade), the trigger queues the
 * handle in `offload_released`; the offload store then deletes the file unless a session uses it again.
 * A removed change set (its session removed) is queued in `checkpoint_released`, so its refs in the
 * workspace's shadow repository are dropped and what no other ref reaches is pruned.
 */
export const migration046OffloadUses: Migration = {
  version: 46,
  name: 'offload-uses',
  up: `
    CREATE TABLE offload_uses (
      handle TEXT NOT NULL,
      session_id TEXT NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
      PRIMARY KEY (handle, session_id)
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX offload_uses_session ON offload_uses (session_id);
    CREATE TABLE offload_released (
      handle TEXT PRIMARY KEY
    ) STRICT, WITHOUT ROWID;
    CREATE TRIGGER offload_uses_released AFTER DELETE ON offload_uses
      WHEN NOT EXISTS (SELECT 1 FROM offload_uses WHERE handle = old.handle)
    BEGIN
      INSERT OR IGNORE INTO offload_released (handle) VALUES (old.handle);
    END;
    CREATE TABLE checkpoint_released (
      change_set_id TEXT PRIMARY KEY,
      workspace_path TEXT NOT NULL
    ) STRICT, WITHOUT ROWID;
    CREATE TRIGGER change_sets_released AFTER DELETE ON change_sets
    BEGIN
      INSERT OR IGNORE INTO checkpoint_released (change_set_id, workspace_path)
        VALUES (old.change_set_id, old.workspace_path);
    END;
  `,
};
