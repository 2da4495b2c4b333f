import type { Migration } from './migration';

/**
 * Each session's running Codex app-server, by process identity (pid and start identity), recorded at
 * spawn: a later host stops a provably-same leftover, and a leftover it cannot confirm gone keeps its
 * session quarantined across restarts. A stopped leftover stays recorded on its session.
 */
export const migration029CodexAppServers: Migration = {
  version: 29,
  name: 'codex-app-servers',
  up: `
    CREATE TABLE codex_app_servers (
      session_id TEXT PRIMARY KEY,
      pid INTEGER NOT NULL,
      process_start TEXT,
      spawned_at INTEGER NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('running', 'quarantined', 'leftover_stopped')),
      changed_at INTEGER NOT NULL
    ) STRICT;
  `,
};
