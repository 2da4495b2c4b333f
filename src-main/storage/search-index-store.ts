import type { Db } from './database';

/**
 * What the WorkHub's full-text index (`session_search`, written through the WorkHub store) has not
 * caught up with: sessions marked by triggers in the transaction that changed them (migration 7).
 * It makes the index incremental across restarts: a start re-indexes only the marked sessions.
 */
export interface SearchIndexStore {
  /** Sessions created, changed or removed since they were last indexed. */
  pending(): string[];
  /** The session's index entry is current (written in the same transaction). */
  markCurrent(sessionId: string): void;
  /** Drops and recreates the index (when it is found damaged) and marks every session. */
  reset(): void;
}

export function createSearchIndexStore(db: Db): SearchIndexStore {
  const pending = db.prepare<[], string>('SELECT session_id FROM session_search_dirty');
  const markCurrent = db.prepare('DELETE FROM session_search_dirty WHERE session_id = ?');
  return {
    pending: () => pending.pluck().all(),
    markCurrent(sessionId) {
      markCurrent.run(sessionId);
    },
    reset() {
      // The FTS table's definition is read from the schema, so the rebuild keeps whatever it is now.
      const definition = db
        .prepare<[], string>("SELECT sql FROM sqlite_master WHERE name = 'session_search'")
        .pluck()
        .get();
      if (definition === undefined) throw new Error('The search index table is missing');
      db.transaction(() => {
        db.exec('DROP TABLE session_search');
        db.exec(definition);
        db.exec('INSERT OR IGNORE INTO session_search_dirty (session_id) SELECT session_id FROM sessions');
      })();
    },
  };
}
