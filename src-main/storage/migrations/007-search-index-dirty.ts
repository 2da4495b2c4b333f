import type { Migration } from './migration';

/**
 * Which sessions the WorkHub's full-text index has not caught up with. Triggers mark a session in
 * the same transaction that creates, changes (its revision moves with every title or transcript
 * change) or removes it; the indexer clears the mark when it re-indexes the session. A start then
 * re-indexes only the marked sessions (normally none) instead of all of them, so its cost does
 * not grow with history. The index is emptied and every session marked here, so the first start
 * after this migration indexes everything once.
 */
export const migration007SearchIndexDirty: Migration = {
  version: 7,
  name: 'search-index-dirty',
  up: `
    CREATE TABLE session_search_dirty (session_id TEXT PRIMARY KEY) STRICT, WITHOUT ROWID;
    CREATE TRIGGER session_search_dirty_on_insert AFTER INSERT ON sessions BEGIN
      INSERT OR IGNORE INTO session_search_dirty (session_id) VALUES (NEW.session_id);
    END;
    CREATE TRIGGER session_search_dirty_on_update AFTER UPDATE OF title, revision ON sessions BEGIN
      INSERT OR IGNORE INTO session_search_dirty (session_id) VALUES (NEW.session_id);
    END;
    CREATE TRIGGER session_search_dirty_on_delete AFTER DELETE ON sessions BEGIN
      INSERT OR IGNORE INTO session_search_dirty (session_id) VALUES (OLD.session_id);
    END;
    DELETE FROM session_search;
    INSERT INTO session_search_dirty (session_id) SELECT session_id FROM sessions;
  `,
};
