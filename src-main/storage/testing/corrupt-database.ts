import Database from 'better-sqlite3';
import { closeSync, openSync, writeSync } from 'node:fs';

/**
 * Damages a real database file the way a disk fault does: overwrites the root page of the index
 * `indexName` with garbage (the tables stay readable), or, with null, the file's header (SQLite then
 * no longer sees a database at all). The WAL is checkpointed first so the damage is what SQLite reads.
 */
export function corruptIndexPage(file: string, indexName: string | null): void {
  const db = new Database(file);
  db.pragma('wal_checkpoint(TRUNCATE)');
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const rootPage =
    indexName === null
      ? null
      : (db.prepare("SELECT rootpage FROM sqlite_master WHERE type = 'index' AND name = ?").pluck().get(indexName) as
          number | undefined);
  db.close();
  if (rootPage === undefined) throw new Error(`No index named ${indexName ?? ''}`);
  const fd = openSync(file, 'r+');
  try {
    if (rootPage === null) writeSync(fd, Buffer.alloc(100, 0x5a), 0, 100, 0);
    else writeSync(fd, Buffer.alloc(pageSize, 0xff), 0, pageSize, (rootPage - 1) * pageSize);
  } finally {
    closeSync(fd);
  }
}
