import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database';
import { MIGRATIONS } from './index';

describe('migration 32: checkpoints', () => {
  it('upgrades a database at 27, and change sets and their files go with their session', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 27),
    );
    db.prepare(
      "INSERT INTO sessions (session_id, title, title_source, connection_id, permission_mode, revision, created_at, updated_at) VALUES ('s1', 'S', 'user', 'c1', 'full', 1, 0, 0)",
    ).run();
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 32),
    );
    expect(schemaVersion(db)).toBe(32);
    db.prepare(
      "INSERT INTO change_sets (change_set_id, session_id, turn_id, origin, workspace_path, status, created_at) VALUES ('cs1', 's1', 't1', 'turn', '/w', 'pending', 1)",
    ).run();
    db.prepare(
      "INSERT INTO change_files (change_set_id, path, change, added, removed, writer) VALUES ('cs1', 'a.txt', 'created', 1, 0, '{\"kind\":\"unknown\"}')",
    ).run();
    expect(() =>
      db
        .prepare(
          "INSERT INTO change_sets (change_set_id, session_id, turn_id, origin, workspace_path, status, created_at) VALUES ('cs2', 's1', 't1', 'turn', '/w', 'half', 1)",
        )
        .run(),
    ).toThrow();
    db.prepare("DELETE FROM sessions WHERE session_id = 's1'").run();
    expect(db.prepare('SELECT COUNT(*) FROM change_files').pluck().get()).toBe(0);
  });
});
