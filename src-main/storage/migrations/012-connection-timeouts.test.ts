import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database';
import { MIGRATIONS } from './index';
import { migration012ConnectionTimeouts } from './012-connection-timeouts';

describe('migration 12: connection timeouts', () => {
  it('gives the connections a version-11 database already has the default timeouts', () => {
    const db = new Database(':memory:');
    const before = MIGRATIONS.filter((migration) => migration.version < 12);
    migrate(db, before);
    db.exec(`INSERT INTO connections (connection_id, name, provider_type, base_url, enabled, enabled_model_ids, models, models_fetched_at, secret_id, revision, created_at, updated_at)
      VALUES ('c1', 'Kept', 'openai', NULL, 1, '[]', '[]', NULL, NULL, 1, 0, 0)`);
    migrate(db, [...before, migration012ConnectionTimeouts]);
    expect(schemaVersion(db)).toBe(12);
    expect(
      db
        .prepare(
          'SELECT name, first_token_timeout_seconds AS firstToken, idle_timeout_seconds AS idle FROM connections',
        )
        .get(),
    ).toEqual({
      name: 'Kept',
      firstToken: 120,
      idle: 60,
    });
  });
});
