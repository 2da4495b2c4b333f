import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database';
import { createOffloadUseStore } from '../offload-use-store';
import { MIGRATIONS } from './index';

describe('migration 46: which sessions use which offloaded output', () => {
  it('keeps the sessions, and from then on queues a handle for release when its last session is removed', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version < 46),
    );
    const insert = db.prepare(
      "INSERT INTO sessions (session_id, title, title_source, connection_id, permission_mode, revision, created_at, updated_at) VALUES (?, 'S', 'default', 'c', 'ask', 1, 1, 1)",
    );
    insert.run('s1');
    insert.run('s2');
    migrate(db, MIGRATIONS);
    expect(schemaVersion(db)).toBeGreaterThanOrEqual(46);
    expect(db.prepare('SELECT COUNT(*) AS n FROM sessions').get()).toEqual({ n: 2 });
    const uses = createOffloadUseStore(db);
    uses.note('h1', 's1');
    uses.note('h1', 's1');
    uses.note('h1', 's2');
    db.prepare('DELETE FROM sessions WHERE session_id = ?').run('s1');
    expect(uses.released()).toEqual([]);
    expect(uses.isUsed('h1')).toBe(true);
    db.prepare('DELETE FROM sessions WHERE session_id = ?').run('s2');
    expect(uses.released()).toEqual(['h1']);
    expect(uses.isUsed('h1')).toBe(false);
  });
});
