import type { Migration } from './migration';

/**
 * Which revision of each session the WorkHub's full-text index holds, so a start re-indexes only
 * the sessions that changed since (normally none) instead of all of them. The index is emptied
 * here, so the first start after this migration indexes every session once.
 */
export const migration007SearchIndexState: Migration = {
  version: 7,
  name: 'search-index-state',
  up: `
    CREATE TABLE session_search_state (
      session_id TEXT PRIMARY KEY,
      indexed_revision INTEGER NOT NULL
    ) STRICT, WITHOUT ROWID;
    DELETE FROM session_search;
  `,
};
