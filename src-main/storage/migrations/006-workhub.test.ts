import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database';
import { MIGRATIONS } from './index';

describe('migration 6: workhub', () => {
  it('upgrades a version-5 database and gives it a working full-text index', () => {
    const db = new Database(':memory:');
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 5),
    );
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 6),
    );
    expect(schemaVersion(db)).toBe(6);
    db.prepare(
      "INSERT INTO session_search (session_id, title, body) VALUES ('s1', 'Quarterly report', 'numbers for the board')",
    ).run();
    expect(
      db.prepare("SELECT session_id FROM session_search WHERE session_search MATCH 'board'").pluck().all(),
    ).toEqual(['s1']);
  });
});
