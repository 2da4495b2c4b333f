import Database from 'better-sqlite3';
import { join } from 'node:path';
import type { MemoryRecord, MemoryScope } from '../../src-shared/memory-model';
import { migrate, type Db } from './database';
import { MEMORY_MIGRATIONS } from './memory-migrations';
import { makePrivateDatabase, makePrivateDir } from './private-files';

/** Long-term memory lives in its own file beside the main database, so losing it loses nothing else. */
export const MEMORY_DATABASE_FILE = 'memory.sqlite';

export interface NewMemory {
  readonly memoryId: string;
  readonly text: string;
  readonly scope: MemoryScope;
  readonly workspacePath: string | null;
  readonly sourceSessionId: string | null;
  readonly sourceTurnId: string | null;
  readonly editedBy: MemoryRecord['editedBy'];
  readonly now: number;
}

export interface MemoryChange {
  readonly memoryId: string;
  readonly text: string;
  readonly scope: MemoryScope;
  readonly workspacePath: string | null;
  readonly expectedRevision: number;
  readonly now: number;
}

export type MemoryWriteResult =
  { readonly ok: MemoryRecord } | { readonly missing: true } | { readonly conflict: MemoryRecord };

export interface MemoryStore {
  insert(memory: NewMemory): MemoryRecord;
  get(memoryId: string): MemoryRecord | null;
  /** A memory with exactly this text in the same place (the agent saying the same thing twice). */
  findSame(text: string, workspacePath: string | null): MemoryRecord | null;
  /** Newest first; with `query`, the best full-text matches first. */
  list(options: { readonly query?: string; readonly limit: number }): MemoryRecord[];
  /** Full-text matches among one workspace's memories and the global ones, best first. */
  search(query: string, workspacePath: string | null, limit: number): MemoryRecord[];
  /** The newest memories of one workspace and the global ones (what a session starts with). */
  newestFor(workspacePath: string | null, limit: number): MemoryRecord[];
  /** Changes a memory if its revision is still `expectedRevision` (the person always wins). */
  update(change: MemoryChange): MemoryWriteResult;
  remove(memoryId: string, expectedRevision: number | null): MemoryWriteResult;
  close(): void;
}

export type MemoryStoreOpening = { readonly store: MemoryStore } | { readonly unavailable: string };

interface MemoryRow {
  memory_id: string;
  text: string;
  scope: MemoryScope;
  workspace_path: string | null;
  source_session_id: string | null;
  source_turn_id: string | null;
  edited_by: MemoryRecord['editedBy'];
  revision: number;
  created_at: number;
  updated_at: number;
}

function toRecord(row: MemoryRow): MemoryRecord {
  return {
    memoryId: row.memory_id,
    text: row.text,
    scope: row.scope,
    workspacePath: row.workspace_path,
    sourceSessionId: row.source_session_id,
    sourceTurnId: row.source_turn_id,
    editedBy: row.edited_by,
    revision: row.revision,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * An FTS5 query from free text: each word as a quoted prefix term, any of them matching (ranked by
 * bm25, so memories matching more and rarer words come first). Null when the text has no words.
 */
export function ftsQuery(text: string): string | null {
  const words = text.match(/[\p{L}\p{N}_]+/gu) ?? [];
  if (words.length === 0) return null;
  return words
    .slice(0, 32)
    .map((word) => `"${word}"*`)
    .join(' OR ');
}

/**
 * Opens (creating and migrating) the memory database. It is optional: when it cannot be opened the
 * answer says why, and the host runs on without memory.
 */
export function openMemoryStore(
  dataDir: string,
  options: { readonly nativeBinding?: string } = {},
): MemoryStoreOpening {
  const file = join(dataDir, MEMORY_DATABASE_FILE);
  let db: Db | null = null;
  try {
    makePrivateDir(dataDir);
    makePrivateDatabase(file);
    db = new Database(file, options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding });
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    migrate(db, MEMORY_MIGRATIONS);
    return { store: createMemoryStore(db) };
  } catch (error) {
    db?.close();
    const detail = error instanceof Error ? error.message : String(error);
    return {
      unavailable: `Memory is unavailable: Cairn could not open ${file} (${detail}). Everything else works; memories cannot be saved or read until it opens.`,
    };
  }
}

export function createMemoryStore(db: Db): MemoryStore {
  const insert = db.prepare(`
    INSERT INTO memories (memory_id, text, scope, workspace_path, source_session_id, source_turn_id, edited_by, revision, created_at, updated_at)
    VALUES (@memoryId, @text, @scope, @workspacePath, @sourceSessionId, @sourceTurnId, @editedBy, 1, @now, @now)`);
  const get = db.prepare<[string], MemoryRow>('SELECT * FROM memories WHERE memory_id = ?');
  const findSame = db.prepare<[string, string | null], MemoryRow>(
    'SELECT * FROM memories WHERE text = ? AND workspace_path IS ?',
  );
  const newest = db.prepare<[number], MemoryRow>(
    'SELECT * FROM memories ORDER BY updated_at DESC, memory_id DESC LIMIT ?',
  );
  const matching = db.prepare<[string, number], MemoryRow>(`
    SELECT m.* FROM memories_fts f JOIN memories m ON m.rowid = f.rowid
    WHERE memories_fts MATCH ? ORDER BY bm25(memories_fts), m.updated_at DESC LIMIT ?`);
  const matchingIn = db.prepare<[string, string | null, number], MemoryRow>(`
    SELECT m.* FROM memories_fts f JOIN memories m ON m.rowid = f.rowid
    WHERE memories_fts MATCH ? AND (m.workspace_path IS NULL OR m.workspace_path = ?)
    ORDER BY bm25(memories_fts), m.updated_at DESC LIMIT ?`);
  const newestIn = db.prepare<[string | null, number], MemoryRow>(`
    SELECT * FROM memories WHERE workspace_path IS NULL OR workspace_path = ?
    ORDER BY updated_at DESC, memory_id DESC LIMIT ?`);
  const update = db.prepare(`
    UPDATE memories SET text = @text, scope = @scope, workspace_path = @workspacePath, edited_by = 'person',
                        revision = revision + 1, updated_at = @now
    WHERE memory_id = @memoryId AND revision = @expectedRevision`);
  const remove = db.prepare<[string], unknown>('DELETE FROM memories WHERE memory_id = ?');

  const read = (memoryId: string) => {
    const row = get.get(memoryId);
    return row === undefined ? null : toRecord(row);
  };

  return {
    insert(memory) {
      insert.run(memory);
      const record = read(memory.memoryId);
      if (record === null) throw new Error(`Memory ${memory.memoryId} vanished after insert`);
      return record;
    },
    get: read,
    findSame(text, workspacePath) {
      const row = findSame.get(text, workspacePath);
      return row === undefined ? null : toRecord(row);
    },
    list({ query, limit }) {
      const match = query === undefined ? null : ftsQuery(query);
      if (query !== undefined && query.trim() !== '' && match === null) return [];
      return (match === null ? newest.all(limit) : matching.all(match, limit)).map(toRecord);
    },
    search(query, workspacePath, limit) {
      const match = ftsQuery(query);
      return match === null ? [] : matchingIn.all(match, workspacePath, limit).map(toRecord);
    },
    newestFor(workspacePath, limit) {
      return newestIn.all(workspacePath, limit).map(toRecord);
    },
    update(change) {
      return db.transaction((): MemoryWriteResult => {
        const current = read(change.memoryId);
        if (current === null) return { missing: true };
        if (update.run(change).changes === 0) return { conflict: current };
        const updated = read(change.memoryId);
        return updated === null ? { missing: true } : { ok: updated };
      })();
    },
    remove(memoryId, expectedRevision) {
      return db.transaction((): MemoryWriteResult => {
        const current = read(memoryId);
        if (current === null) return { missing: true };
        if (expectedRevision !== null && current.revision !== expectedRevision) return { conflict: current };
        remove.run(memoryId);
        return { ok: current };
      })();
    },
    close() {
      if (db.open) db.close();
    },
  };
}
