import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database';
import { MIGRATIONS } from './index';

describe('migration 35: connection last test', () => {
  it('keeps the connections of a version-34 database, untested, and accepts only known verdicts', () => {
    const db = new Database(':memory:');
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 34),
    );
    db.exec(`INSERT INTO connections (connection_id, name, provider_type, base_url, enabled, enabled_model_ids, models, models_fetched_at, secret_id, revision, created_at, updated_at)
      VALUES ('c1', 'Kept', 'openai', NULL, 1, '[]', '[]', NULL, NULL, 1, 0, 0)`);
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 35),
    );
    expect(schemaVersion(db)).toBe(35);
    expect(db.prepare('SELECT name, last_test_at AS at, last_test_verdict AS verdict FROM connections').get()).toEqual({
      name: 'Kept',
      at: null,
      verdict: null,
    });
    db.prepare(
      "UPDATE connections SET last_test_at = 5, last_test_verdict = 'bad_key', last_test_message = 'No', last_test_latency_ms = 9",
    ).run();
    expect(() => db.prepare("UPDATE connections SET last_test_verdict = 'fine'").run()).toThrow();
  });
});
