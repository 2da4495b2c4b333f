import type { Migration } from './migration';

/** Interactions: what the agent asked the person, and their answer (secret answers sealed in the vault). */
export const migration003Interactions: Migration = {
  version: 3,
  name: 'interactions',
  up: `
    CREATE TABLE interactions (
      interaction_id TEXT PRIMARY KEY,
      session_id TEXT NOT NULL REFERENCES sessions (session_id) ON DELETE CASCADE,
      turn_id TEXT NOT NULL,
      run_id TEXT NOT NULL,
      tool_call_id TEXT NOT NULL,
      request TEXT NOT NULL,
      status TEXT NOT NULL,
      answer TEXT,
      answer_secret_id TEXT,
      close_reason TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX interactions_by_session ON interactions (session_id, created_at);
    CREATE INDEX interactions_pending ON interactions (status, created_at) WHERE status = 'pending';
  `,
};
