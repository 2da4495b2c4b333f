import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database';
import { MIGRATIONS } from './index';

describe('migration 14: codex binary', () => {
  it('keeps the connections of a version-13 database, each with no codex binary set', () => {
    const db = new Database(':memory:');
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 13),
    );
    db.exec(`INSERT INTO connections (connection_id, name, provider_type, base_url, enabled, enabled_model_ids, models, models_fetched_at, secret_id, revision, created_at, updated_at)
      VALUES ('c1', 'Kept', 'codex', NULL, 1, '[]', '[]', NULL, NULL, 1, 0, 0)`);
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 14),
    );
    expect(schemaVersion(db)).toBe(14);
    expect(db.prepare('SELECT name, codex_binary AS codexBinary FROM connections').get()).toEqual({
      name: 'Kept',
      codexBinary: null,
    });
  });
});
