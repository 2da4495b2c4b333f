import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database';
import { createSearchIndexStore } from '../search-index-store';
import { MIGRATIONS } from './index';

describe('migration 7: search index marks', () => {
  it('upgrades a version-6 database: the index is emptied and every session marked once; writes mark again', () => {
    const db = new Database(':memory:');
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 6),
    );
    db.exec(`
      INSERT INTO sessions (session_id, title, title_source, connection_id, permission_mode, revision, created_at, updated_at)
        VALUES ('s1', 'Kept', 'user', 'offline-demo', 'ask', 3, 0, 0);
      INSERT INTO session_search (session_id, title, body) VALUES ('s1', 'Kept', 'old text');`);
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 7),
    );
    expect(schemaVersion(db)).toBe(7);
    expect(db.prepare('SELECT count(*) FROM session_search').pluck().get()).toBe(0);
    const store = createSearchIndexStore(db);
    expect(store.pending()).toEqual(['s1']);
    store.markCurrent('s1');
    expect(store.pending()).toEqual([]);
    db.prepare("UPDATE sessions SET revision = 4 WHERE session_id = 's1'").run();
    expect(store.pending()).toEqual(['s1']);
    store.markCurrent('s1');
    db.prepare("UPDATE sessions SET archived = 1 WHERE session_id = 's1'").run();
    expect(store.pending()).toEqual([]);
    db.prepare("DELETE FROM sessions WHERE session_id = 's1'").run();
    expect(store.pending()).toEqual(['s1']);
    db.exec(`INSERT INTO sessions (session_id, title, title_source, connection_id, permission_mode, revision, created_at, updated_at)
      VALUES ('s2', 'New', 'user', 'offline-demo', 'ask', 1, 0, 0)`);
    expect(store.pending().sort()).toEqual(['s1', 's2']);
  });
});
