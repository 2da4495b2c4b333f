import type { Migration } from './migrations/migration';

/**
 * The memory database's own migrations (it is a separate file, `memory.sqlite`, with its own
 * `user_version`). Memories, and an FTS5 index over their text kept in step by triggers.
 */
export const MEMORY_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'memories',
    up: `
      CREATE TABLE memories (
        memory_id TEXT PRIMARY KEY,
        text TEXT NOT NULL,
        scope TEXT NOT NULL CHECK (scope IN ('workspace', 'global')),
        workspace_path TEXT,
        source_session_id TEXT,
        source_turn_id TEXT,
        edited_by TEXT NOT NULL CHECK (edited_by IN ('agent', 'person')),
        revision INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        CHECK ((scope = 'global') = (workspace_path IS NULL))
      ) STRICT;
      CREATE INDEX memories_by_recency ON memories (updated_at DESC, memory_id DESC);
      CREATE INDEX memories_by_workspace ON memories (workspace_path, updated_at DESC) WHERE workspace_path IS NOT NULL;

      CREATE VIRTUAL TABLE memories_fts USING fts5 (text, content = 'memories', content_rowid = 'rowid', tokenize = 'unicode61 remove_diacritics 2');
      CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
        INSERT INTO memories_fts (rowid, text) VALUES (new.rowid, new.text);
      END;
      CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
        INSERT INTO memories_fts (memories_fts, rowid, text) VALUES ('delete', old.rowid, old.text);
      END;
      CREATE TRIGGER memories_fts_update AFTER UPDATE OF text ON memories BEGIN
        INSERT INTO memories_fts (memories_fts, rowid, text) VALUES ('delete', old.rowid, old.text);
        INSERT INTO memories_fts (rowid, text) VALUES (new.rowid, new.text);
      END;
    `,
  },
];
