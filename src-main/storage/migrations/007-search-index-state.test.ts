import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database';
import { MIGRATIONS } from './index';
import { createSearchIndexStore } from '../search-index-store';

describe('migration 7: search index state', () => {
  it('upgrades a version-6 database: the index is emptied, so every session is stale once', () => {
    const db = new Database(':memory:');
    const before = MIGRATIONS.filter((migration) => migration.version <= 6);
    migrate(db, before);
    db.exec(`
      INSERT INTO sessions (session_id, title, title_source, connection_id, permission_mode, revision, created_at, updated_at)
        VALUES ('s1', 'Kept', 'user', 'offline-demo', 'ask', 3, 0, 0);
      INSERT INTO session_search (session_id, title, body) VALUES ('s1', 'Kept', 'old text');`);
    migrate(db, MIGRATIONS.filter((migration) => migration.version <= 7));
    expect(schemaVersion(db)).toBe(7);
    expect(db.prepare('SELECT count(*) FROM session_search').pluck().get()).toBe(0);
    const store = createSearchIndexStore(db);
    expect(store.stale('workhub')).toEqual(['s1']);
    store.markIndexed('s1', 3);
    expect(store.stale('workhub')).toEqual([]);
    db.prepare("UPDATE sessions SET revision = 4 WHERE session_id = 's1'").run();
    expect(store.stale('workhub')).toEqual(['s1']);
  });
});
