import type { Migration } from './migration';

/**
 * Subagents: each child session's link to the parent session, turn, run and tool call that spawned
 * it (the spawn id makes a replayed spawn return the same child), the agent it runs, and its tree's
 * root; and, per tree, the reason it was failed-stopped (written once).
 */
export const migration019AgentChildren: Migration = {
  version: 19,
  name: 'agent-children',
  up: `
    CREATE TABLE agent_children (
      child_session_id TEXT PRIMARY KEY REFERENCES sessions (session_id) ON DELETE CASCADE,
      spawn_id TEXT NOT NULL UNIQUE,
      root_session_id TEXT NOT NULL,
      parent_session_id TEXT NOT NULL,
      parent_turn_id TEXT NOT NULL,
      parent_run_id TEXT NOT NULL,
      parent_tool_call_id TEXT NOT NULL,
      depth INTEGER NOT NULL CHECK (depth >= 1),
      agent_id TEXT NOT NULL,
      agent_name TEXT NOT NULL,
      system_prompt TEXT NOT NULL,
      tool_names TEXT,
      task TEXT NOT NULL,
      initial_turn_id TEXT NOT NULL,
      created_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX agent_children_by_parent ON agent_children (parent_session_id, created_at);
    CREATE INDEX agent_children_by_root ON agent_children (root_session_id, created_at);

    CREATE TABLE agent_tree_failures (
      root_session_id TEXT PRIMARY KEY,
      reason TEXT NOT NULL,
      failed_at INTEGER NOT NULL
    ) STRICT;
  `,
};
