import type { Migration } from './migration';

/** Goals: at most one current (not cleared) goal per session; cleared ones stay as history. */
export const migration005Goals: Migration = {
  version: 5,
  name: 'goals',
  up: `
    CREATE TABLE goals (
      goal_id TEXT PRIMARY KEY,
      session_id TEXT NOT NULL REFERENCES sessions (session_id) ON DELETE CASCADE,
      objective TEXT NOT NULL,
      status TEXT NOT NULL,
      token_budget INTEGER,
      tokens_used INTEGER NOT NULL DEFAULT 0,
      max_iterations INTEGER,
      iterations INTEGER NOT NULL DEFAULT 0,
      time_used_ms INTEGER NOT NULL DEFAULT 0,
      consecutive_failures INTEGER NOT NULL DEFAULT 0,
      revision INTEGER NOT NULL,
      last_reason TEXT,
      cleared INTEGER NOT NULL DEFAULT 0,
      created_by TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    ) STRICT;
    CREATE UNIQUE INDEX goals_current ON goals (session_id) WHERE cleared = 0;
    CREATE INDEX goals_by_session ON goals (session_id, created_at);
    CREATE INDEX goals_active ON goals (status) WHERE cleared = 0 AND status = 'active';

    ALTER TABLE turns ADD COLUMN goal_id TEXT;
  `,
};
