import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database';
import { MIGRATIONS } from './index';

describe('migration 10: goal controls', () => {
  it('upgrades a version-9 database with one record per control id', () => {
    const db = new Database(':memory:');
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 9),
    );
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 10),
    );
    expect(schemaVersion(db)).toBe(10);
    const record = db.prepare(
      "INSERT INTO goal_controls (control_id, goal_id, request, goal, created_at) VALUES ('c1', 'g1', '{}', '{}', 1)",
    );
    record.run();
    expect(() => record.run()).toThrow(/UNIQUE/);
  });
});
