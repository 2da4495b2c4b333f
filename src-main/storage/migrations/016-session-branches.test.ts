import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database';
import { MIGRATIONS } from './index';

describe('migration 16: session branches', () => {
  it('upgrades an older database, keeps its sessions, and removes a branch row with its session', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version < 16),
    );
    db.exec(`INSERT INTO sessions (session_id, title, title_source, connection_id, permission_mode, revision, created_at, updated_at)
      VALUES ('s1', 'Kept', 'user', 'c1', 'ask', 1, 0, 0), ('b1', 'Branch', 'user', 'c1', 'ask', 1, 0, 0);`);
    migrate(db, MIGRATIONS);
    expect(schemaVersion(db)).toBeGreaterThanOrEqual(16);
    expect(db.prepare('SELECT title FROM sessions WHERE session_id = ?').pluck().get('s1')).toBe('Kept');
    const insert =
      db.prepare(`INSERT INTO session_branches (session_id, request_id, source_session_id, source_item_id, source_turn_id,
      cut_position, cut_ordinal, mode, text, turn_id, state, copied_through, created_at)
      VALUES ('b1', ?, 's1', 'i1', 't1', 0, 1, 'edit', 'x', 't2', 'copying', -1, 0)`);
    insert.run('r1');
    expect(() => insert.run('r2')).toThrow(/UNIQUE|PRIMARY/);
    db.prepare("DELETE FROM sessions WHERE session_id = 'b1'").run();
    expect(db.prepare('SELECT COUNT(*) FROM session_branches').pluck().get()).toBe(0);
  });
});
