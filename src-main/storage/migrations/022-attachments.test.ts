import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database';
import { MIGRATIONS } from './index';

describe('migration 22: attachments', () => {
  it('adds the attachments table to a database of the version before, which keeps its sessions', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    const before = MIGRATIONS.filter((migration) => migration.version < 22);
    migrate(db, before);
    const sessionColumns = (
      db.prepare("SELECT name FROM pragma_table_info('sessions')").all() as { name: string }[]
    ).map((row) => row.name);
    expect(sessionColumns).toContain('session_id');
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 22),
    );
    expect(schemaVersion(db)).toBe(22);
    const columns = (db.prepare("SELECT name FROM pragma_table_info('attachments')").all() as { name: string }[]).map(
      (row) => row.name,
    );
    expect(columns).toEqual([
      'attachment_id',
      'session_id',
      'name',
      'media_type',
      'kind',
      'size_bytes',
      'sha256',
      'created_at',
    ]);
    expect(() =>
      db
        .prepare("INSERT INTO attachments VALUES ('a1', 'no-such-session', 'x.txt', 'text/plain', 'text', 1, 'ab', 0)")
        .run(),
    ).toThrow(/FOREIGN KEY/);
  });
});
