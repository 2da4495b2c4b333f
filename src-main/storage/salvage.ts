import Database from 'better-sqlite3';
import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { DATABASE_FILE, openDatabase, type Db, type OpenDatabaseOptions } from './database';

export interface SalvageReport {
  /** Where the damaged database now is (kept, never deleted). */
  readonly damagedFile: string;
  /** Rows copied per table into the fresh database. */
  readonly copied: Readonly<Record<string, number>>;
  /** Tables that could be read only in part (or not at all). */
  readonly partial: readonly string[];
}

/** Derived data rebuilt by the host itself (message_search by its triggers as transcript rows are copied); copying it could carry the damage over. */
const SKIPPED = /^(sqlite_|session_search|message_search)/;

/**
 * Moves a damaged database aside (with its WAL, so committed writes not yet checkpointed come
 * along) and copies every row SQLite can still read into a fresh, migrated database: sessions,
 * turns, runs, ledger, transcripts and the rest, table by table in the order the schema created
 * them (parents before children), stopping a table at its first unreadable row. Call it only while
 * holding the data directory lock.
 */
export function salvageDatabase(
  dataDir: string,
  options: Pick<OpenDatabaseOptions, 'nativeBinding'>,
  now: Date,
): SalvageReport {
  const file = join(dataDir, DATABASE_FILE);
  const damagedFile = `${file}.damaged-${now.toISOString().replace(/[:.]/g, '-')}`;
  renameSync(file, damagedFile);
  for (const suffix of ['-wal', '-shm']) {
    if (existsSync(file + suffix)) renameSync(file + suffix, damagedFile + suffix);
  }
  const fresh = openDatabase(dataDir, options);
  const copied: Record<string, number> = {};
  const partial: string[] = [];
  let old: Db | null = null;
  try {
    old = new Database(damagedFile, {
      fileMustExist: true,
      ...(options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding }),
    });
    fresh.pragma('foreign_keys = OFF');
    for (const table of tablesToCopy(fresh, old)) {
      const result = copyTable(old, fresh, table);
      copied[table] = result.rows;
      if (!result.complete) partial.push(table);
    }
  } catch {
    partial.push('(the damaged database could not be read at all)');
  } finally {
    old?.close();
    fresh.close();
  }
  return { damagedFile, copied, partial };
}

function tableNames(db: Db): string[] {
  return db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid").pluck().all() as string[];
}

function tablesToCopy(fresh: Db, old: Db): string[] {
  const present = new Set(tableNames(old));
  return tableNames(fresh).filter((name) => !SKIPPED.test(name) && present.has(name));
}

function columns(db: Db, table: string): string[] {
  return (db.prepare('SELECT name FROM pragma_table_info(?)').all(table) as Array<{ name: string }>).map(
    (row) => row.name,
  );
}

function copyTable(old: Db, fresh: Db, table: string): { rows: number; complete: boolean } {
  let rows = 0;
  let complete = true;
  try {
    const freshColumns = new Set(columns(fresh, table));
    const shared = columns(old, table).filter((name) => freshColumns.has(name));
    const list = shared.map((name) => `"${name}"`).join(', ');
    const read = old.prepare(`SELECT ${list} FROM "${table}"`).raw();
    const write = fresh.prepare(
      `INSERT OR IGNORE INTO "${table}" (${list}) VALUES (${shared.map(() => '?').join(', ')})`,
    );
    fresh.transaction(() => {
      try {
        for (const row of read.iterate()) rows += write.run(...(row as unknown[])).changes;
      } catch {
        complete = false;
      }
    })();
  } catch {
    complete = false;
  }
  return { rows, complete };
}
