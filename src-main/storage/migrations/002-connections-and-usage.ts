import type { Migration } from './migration';

/**
 * The connection catalog (keys live in the secret vault, never here), host settings, usage per model
 * call, and structured data on transcript items (a tool call's arguments, a tool's result).
 */
export const migration002ConnectionsAndUsage: Migration = {
  version: 2,
  name: 'connections-and-usage',
  up: `
    CREATE TABLE connections (
      connection_id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      provider_type TEXT NOT NULL,
      base_url TEXT,
      enabled INTEGER NOT NULL,
      enabled_model_ids TEXT NOT NULL,
      models TEXT NOT NULL,
      models_fetched_at INTEGER,
      secret_id TEXT,
      revision INTEGER NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    ) STRICT;

    CREATE TABLE settings (
      key TEXT PRIMARY KEY,
      value TEXT NOT NULL
    ) STRICT;

    CREATE TABLE usage_records (
      usage_id INTEGER PRIMARY KEY,
      session_id TEXT NOT NULL,
      turn_id TEXT NOT NULL,
      run_id TEXT NOT NULL,
      connection_id TEXT NOT NULL,
      model_id TEXT NOT NULL,
      input_tokens INTEGER NOT NULL,
      output_tokens INTEGER NOT NULL,
      cached_input_tokens INTEGER NOT NULL,
      reasoning_tokens INTEGER NOT NULL,
      latency_ms INTEGER NOT NULL,
      cost_usd REAL,
      recorded_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX usage_by_session ON usage_records (session_id, turn_id);
    CREATE INDEX usage_by_time ON usage_records (recorded_at);

    ALTER TABLE transcript_items ADD COLUMN data TEXT;
  `,
};
