import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database';
import { MIGRATIONS } from './index';

describe('migration 30: acp', () => {
  it('keeps the connections of an older database, each with no ACP agent; a checkpoint goes with its session', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version < 30),
    );
    db.exec(`INSERT INTO connections (connection_id, name, provider_type, base_url, enabled, enabled_model_ids, models, models_fetched_at, secret_id, revision, created_at, updated_at)
      VALUES ('c1', 'Kept', 'openai', NULL, 1, '[]', '[]', NULL, NULL, 1, 0, 0)`);
    db.prepare(
      "INSERT INTO sessions (session_id, title, title_source, connection_id, permission_mode, revision, created_at, updated_at) VALUES ('s1', 'S', 'user', 'c1', 'ask', 1, 0, 0)",
    ).run();
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 30),
    );
    expect(schemaVersion(db)).toBe(30);
    expect(db.prepare('SELECT name, acp_agent AS acpAgent FROM connections').get()).toEqual({
      name: 'Kept',
      acpAgent: null,
    });
    db.prepare(
      "INSERT INTO acp_checkpoints (session_id, acp_session_id, instance_id, updated_at) VALUES ('s1', 'a1', 'i1', 0)",
    ).run();
    db.prepare("DELETE FROM sessions WHERE session_id = 's1'").run();
    expect(db.prepare('SELECT COUNT(*) FROM acp_checkpoints').pluck().get()).toBe(0);
  });
});
