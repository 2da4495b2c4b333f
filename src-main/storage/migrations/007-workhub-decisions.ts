import type { Migration } from './migration';

/**
 * What became of each WorkHub proposal: an action now names the request it acted on and keeps a
 * refusal met while trying (so a replay answers it too), and each routed request has at most one
 * decision (done, failed or cancelled).
 */
export const migration007WorkHubDecisions: Migration = {
  version: 7,
  name: 'workhub-decisions',
  up: `
    ALTER TABLE workhub_actions ADD COLUMN request_id TEXT;
    ALTER TABLE workhub_actions ADD COLUMN error TEXT;

    CREATE TABLE workhub_decisions (
      request_id TEXT PRIMARY KEY,
      status TEXT NOT NULL CHECK (status IN ('done', 'failed', 'cancelled')),
      decision TEXT NOT NULL,
      created_at INTEGER NOT NULL
    ) STRICT;
  `,
};
