import type { Migration } from './migration';

/**
 * The WorkHub: its actions (idempotent by action id, kept across restarts), the delegations they
 * made, the candidate sets it offered, and a full-text index over session titles and recent text.
 */
export const migration006WorkHub: Migration = {
  version: 6,
  name: 'workhub',
  up: `
    CREATE TABLE workhub_actions (
      action_id TEXT PRIMARY KEY,
      proposal TEXT NOT NULL,
      result TEXT NOT NULL,
      created_at INTEGER NOT NULL
    ) STRICT;

    CREATE TABLE delegations (
      delegation_id TEXT PRIMARY KEY,
      action_id TEXT NOT NULL UNIQUE,
      target_session_id TEXT NOT NULL,
      target_turn_id TEXT NOT NULL,
      text TEXT NOT NULL,
      created_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX delegations_by_target ON delegations (target_session_id, created_at);

    CREATE TABLE candidate_sets (
      candidate_set_id TEXT PRIMARY KEY,
      entries TEXT NOT NULL,
      created_at INTEGER NOT NULL
    ) STRICT;

    CREATE VIRTUAL TABLE session_search USING fts5 (session_id UNINDEXED, title, body, tokenize = 'porter unicode61');
  `,
};
