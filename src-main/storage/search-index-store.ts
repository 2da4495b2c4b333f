import type { Db } from './database';

/**
 * What the WorkHub's full-text index (`session_search`, written through the WorkHub store) holds:
 * the session revision each entry was made from. It makes the index incremental across restarts:
 * a start re-indexes only sessions whose revision moved (a crash between a write and its index
 * update) and forgets sessions that are gone.
 */
export interface SearchIndexStore {
  /** Sessions (except `excluded`) whose indexed revision is missing or behind their revision. */
  stale(excluded: string): string[];
  /** Sessions with an index entry but no longer a session. */
  orphans(): string[];
  markIndexed(sessionId: string, revision: number): void;
  forget(sessionId: string): void;
  /** Drops and recreates the index (when it is found damaged); every session becomes stale. */
  reset(): void;
}

export function createSearchIndexStore(db: Db): SearchIndexStore {
  const stale = db.prepare<[string], string>(`
    SELECT s.session_id FROM sessions s LEFT JOIN session_search_state x ON x.session_id = s.session_id
    WHERE s.session_id <> ? AND (x.indexed_revision IS NULL OR x.indexed_revision <> s.revision)`);
  const orphans = db.prepare<[], string>(
    'SELECT x.session_id FROM session_search_state x WHERE NOT EXISTS (SELECT 1 FROM sessions s WHERE s.session_id = x.session_id)',
  );
  const mark = db.prepare('INSERT INTO session_search_state (session_id, indexed_revision) VALUES (?, ?) ON CONFLICT (session_id) DO UPDATE SET indexed_revision = excluded.indexed_revision');
  const forget = db.prepare('DELETE FROM session_search_state WHERE session_id = ?');
  return {
    stale: (excluded) => stale.pluck().all(excluded),
    orphans: () => orphans.pluck().all(),
    markIndexed(sessionId, revision) {
      mark.run(sessionId, revision);
    },
    forget(sessionId) {
      forget.run(sessionId);
    },
    reset() {
      // The FTS table's definition is read from the schema, so the rebuild keeps whatever it is now.
      const definition = db.prepare<[], string>("SELECT sql FROM sqlite_master WHERE name = 'session_search'").pluck().get();
      if (definition === undefined) throw new Error('The search index table is missing');
      db.transaction(() => {
        db.exec('DROP TABLE session_search');
        db.exec(definition);
        db.exec('DELETE FROM session_search_state');
      })();
    },
  };
}
