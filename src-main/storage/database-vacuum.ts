import Database from 'better-sqlite3';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Runs in a worker thread on its own connection, so the host keeps answering while the database is
 * rewritten: VACUUM (through the write-ahead log), then a checkpoint that truncates the log.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.modulePath);
let db;
try {
  db = new Database(workerData.file, { fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  db.exec('VACUUM');
  const [checkpoint] = db.pragma('wal_checkpoint(TRUNCATE)');
  parentPort.postMessage({ ok: true, busy: checkpoint ? checkpoint.busy : 0 });
} catch (error) {
  parentPort.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) });
} finally {
  if (db) db.close();
}
`;

export type VacuumOutcome = { readonly ok: true } | { readonly ok: false; readonly message: string };

/** Compacts the SQLite database at `file` in a worker thread; resolves when it is done or failed. */
export function vacuumInWorker(file: string): Promise<VacuumOutcome> {
  const modulePath = createRequire(import.meta.url).resolve('better-sqlite3');
  return new Promise((resolve) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, modulePath } });
    let settled = false;
    const settle = (outcome: VacuumOutcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
      void worker.terminate();
    };
    worker.on('message', (message: { ok: boolean; message?: string }) =>
      settle(message.ok ? { ok: true } : { ok: false, message: message.message ?? 'unknown failure' }),
    );
    worker.on('error', (error) => settle({ ok: false, message: error.message }));
    worker.on('exit', () => settle({ ok: false, message: 'the compacting thread ended early' }));
  });
}

/** Bytes of the database's pages in use and free, read on a short read-only connection of its own. */
export function databaseSpace(file: string): { usedBytes: number; freeBytes: number } {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const pages = db.pragma('page_count', { simple: true }) as number;
    const free = db.pragma('freelist_count', { simple: true }) as number;
    return { usedBytes: (pages - free) * pageSize, freeBytes: free * pageSize };
  } finally {
    db.close();
  }
}
