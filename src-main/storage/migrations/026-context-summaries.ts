import type { Migration } from './migration';

/**
 * Compaction: durable summaries of the older part of a session's conversation. A summary covers the
 * transcript from its first item through `last_position`; the newest one per session is what model
 * requests send. The transcript itself is never changed.
 */
export const migration026ContextSummaries: Migration = {
  version: 26,
  name: 'context-summaries',
  up: `
    CREATE TABLE context_summaries (
      summary_id TEXT PRIMARY KEY,
      session_id TEXT NOT NULL REFERENCES sessions (session_id) ON DELETE CASCADE,
      first_position INTEGER NOT NULL,
      last_position INTEGER NOT NULL,
      first_item_id TEXT NOT NULL,
      first_turn INTEGER NOT NULL,
      last_turn INTEGER NOT NULL,
      -- Null when a native agent compacted its own context and gave no text (Codex).
      text TEXT,
      previous_summary_id TEXT,
      turn_id TEXT NOT NULL,
      run_id TEXT NOT NULL,
      input_tokens INTEGER NOT NULL,
      output_tokens INTEGER NOT NULL,
      summary_tokens INTEGER NOT NULL,
      created_at INTEGER NOT NULL,
      CHECK (last_position >= first_position)
    ) STRICT;
    CREATE INDEX context_summaries_by_session ON context_summaries (session_id, last_position);
  `,
};
