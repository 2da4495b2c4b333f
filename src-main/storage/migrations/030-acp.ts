import type { Migration } from './migration';

/**
 * ACP agents: a connection may run an ACP agent command (`acp_agent`: its command, arguments and
 * environment as JSON), and each ACP session checkpoints the agent session it drives, the agent
 * process instance (its pid, name and version) and the last update applied from that instance.
 */
export const migration030Acp: Migration = {
  version: 30,
  name: 'acp',
  up: `
    ALTER TABLE connections ADD COLUMN acp_agent TEXT;
    CREATE TABLE acp_checkpoints (
      session_id TEXT PRIMARY KEY REFERENCES sessions(session_id) ON DELETE CASCADE,
      acp_session_id TEXT NOT NULL,
      instance_id TEXT NOT NULL,
      pid INTEGER,
      agent_name TEXT,
      agent_version TEXT,
      last_seq INTEGER NOT NULL DEFAULT 0,
      updated_at INTEGER NOT NULL
    ) STRICT;
  `,
};
