import type { Migration } from './migration';

/** goal.control commands by their client-chosen id, with the goal they left, so a replay answers the same. */
export const migration010GoalControls: Migration = {
  version: 10,
  name: 'goal-controls',
  up: `
    CREATE TABLE goal_controls (
      control_id TEXT PRIMARY KEY,
      goal_id TEXT NOT NULL,
      request TEXT NOT NULL,
      goal TEXT NOT NULL,
      created_at INTEGER NOT NULL
    ) STRICT;
  `,
};
