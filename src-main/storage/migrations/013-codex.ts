import type { Migration } from './migration';

/**
 * Codex sessions: per session, the Codex thread it drives and the app-server instance whose events
 * were last applied; per instance, the sequence numbers already applied (appends are idempotent on
 * the pair); per Codex turn, its structured result.
 */
export const migration013Codex: Migration = {
  version: 13,
  name: 'codex',
  up: `
    CREATE TABLE codex_checkpoints (
      session_id TEXT PRIMARY KEY,
      thread_id TEXT NOT NULL,
      instance_id TEXT,
      last_seq INTEGER NOT NULL DEFAULT 0,
      codex_version TEXT,
      updated_at INTEGER NOT NULL
    ) STRICT;

    CREATE TABLE codex_applied_events (
      instance_id TEXT NOT NULL,
      seq INTEGER NOT NULL,
      session_id TEXT NOT NULL,
      PRIMARY KEY (instance_id, seq)
    ) STRICT, WITHOUT ROWID;

    CREATE TABLE codex_turn_results (
      codex_turn_id TEXT PRIMARY KEY,
      session_id TEXT NOT NULL,
      turn_id TEXT NOT NULL,
      run_id TEXT NOT NULL,
      status TEXT NOT NULL,
      final_message TEXT NOT NULL,
      files_changed TEXT NOT NULL,
      commands TEXT NOT NULL,
      input_tokens INTEGER NOT NULL,
      output_tokens INTEGER NOT NULL,
      error_message TEXT,
      structured TEXT,
      created_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX codex_turn_results_by_turn ON codex_turn_results (session_id, turn_id);
  `,
};
