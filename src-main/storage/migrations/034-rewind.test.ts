import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database';
import { MIGRATIONS } from './index';

describe('migration 34: rewind', () => {
  it('keeps branches, change sets and their files, allows a rewind of each, and the cascades still hold', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 32),
    );
    const session = db.prepare(
      "INSERT INTO sessions (session_id, title, title_source, connection_id, permission_mode, revision, created_at, updated_at) VALUES (?, 'S', 'user', 'c1', 'full', 1, 0, 0)",
    );
    session.run('s1');
    session.run('b1');
    db.prepare(
      `INSERT INTO session_branches (session_id, request_id, source_session_id, source_item_id, source_turn_id, cut_position, cut_ordinal, mode, text, turn_id, state, copied_through, created_at)
       VALUES ('b1', 'r1', 's1', 'i1', 't1', 0, 0, 'edit', 'x', 'r1', 'ready', -1, 1)`,
    ).run();
    db.prepare(
      "INSERT INTO change_sets (change_set_id, session_id, turn_id, origin, workspace_path, status, before_commit, created_at) VALUES ('cs1', 's1', 't1', 'turn', '/w', 'open', 'abc', 1)",
    ).run();
    db.prepare(
      "INSERT INTO change_files (change_set_id, path, change, added, removed, writer) VALUES ('cs1', 'a.txt', 'created', 1, 0, '{\"kind\":\"unknown\"}')",
    ).run();

    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 34),
    );
    expect(schemaVersion(db)).toBe(34);
    expect(db.prepare('SELECT mode, source_session_id FROM session_branches').all()).toEqual([
      { mode: 'edit', source_session_id: 's1' },
    ]);
    expect(db.prepare('SELECT change_set_id, before_commit FROM change_sets').all()).toEqual([
      { change_set_id: 'cs1', before_commit: 'abc' },
    ]);
    expect(db.prepare('SELECT path FROM change_files').pluck().all()).toEqual(['a.txt']);
    expect(db.pragma('foreign_key_check')).toEqual([]);

    db.prepare(
      `INSERT INTO session_branches (session_id, request_id, source_session_id, source_item_id, source_turn_id, cut_position, cut_ordinal, mode, text, turn_id, state, copied_through, created_at)
       VALUES ('s1', 'r2', 'b1', 'i1', 't1', 0, 0, 'rewind', 'x', 'r2', 'ready', -1, 1)`,
    ).run();
    db.prepare(
      "INSERT INTO change_sets (change_set_id, session_id, turn_id, origin, workspace_path, status, created_at) VALUES ('cs2', 'b1', 't1', 'rewind', '/w', 'pending', 2)",
    ).run();
    expect(() =>
      db
        .prepare(
          "INSERT INTO change_sets (change_set_id, session_id, turn_id, origin, workspace_path, status, created_at) VALUES ('cs3', 'b1', 't1', 'redo', '/w', 'pending', 2)",
        )
        .run(),
    ).toThrow();
    db.prepare("DELETE FROM sessions WHERE session_id = 's1'").run();
    expect(db.prepare('SELECT COUNT(*) FROM change_files').pluck().get()).toBe(0);
    expect(db.prepare("SELECT COUNT(*) FROM session_branches WHERE session_id = 's1'").pluck().get()).toBe(0);
  });
});
