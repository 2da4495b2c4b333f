import type { Migration } from './migration';

/**
 * What an ACP agent offers in a session, as it last said (its slash commands, its modes and config
 * options, as JSON), and the person's own choices among them (JSON: selector id → value), re-applied
 * when the agent starts for the session again.
 */
export const migration042AcpSessionOffers: Migration = {
  version: 42,
  name: 'acp-session-offers',
  up: `
    CREATE TABLE acp_session_offers (
      session_id TEXT PRIMARY KEY REFERENCES sessions(session_id) ON DELETE CASCADE,
      commands TEXT NOT NULL DEFAULT '[]',
      selectors TEXT NOT NULL DEFAULT '[]',
      chosen TEXT NOT NULL DEFAULT '{}',
      updated_at INTEGER NOT NULL
    ) STRICT;
  `,
};
