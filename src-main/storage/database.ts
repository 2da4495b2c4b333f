import Database from 'better-sqlite3';
import { join } from 'node:path';
import { DataDirError } from './data-dir-errors';
import { MIGRATIONS, type Migration } from './migrations';
import { makePrivateDatabase, makePrivateDir } from './private-files';
import { describeFileSystemError } from './read-only';

export type Db = Database.Database;

export const DATABASE_FILE = 'cairn.sqlite';

export interface OpenDatabaseOptions {
  /** For the Electron build: the path of a better-sqlite3 binary built for Electron's ABI. */
  readonly nativeBinding?: string;
  readonly migrations?: readonly Migration[];
  /** Run `PRAGMA quick_check` after opening (after an unclean shutdown, or before a salvage). */
  readonly check?: boolean;
}

const DAMAGED_CODES = new Set([
  'SQLITE_CORRUPT',
  'SQLITE_NOTADB',
  'SQLITE_CORRUPT_INDEX',
  'SQLITE_CORRUPT_VTAB',
  'SQLITE_CORRUPT_SEQUENCE',
]);

export function isDamagedDatabaseError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && DAMAGED_CODES.has(code);
}

export function damagedDatabaseError(file: string, detail: string): DataDirError {
  return new DataDirError(
    'damaged_database',
    file,
    `Cairn's database ${file} is damaged (${detail}). Cairn can move it aside, keeping the damaged file, and start ` +
      'with a fresh database holding every session and transcript it can still read.',
  );
}

/** Turns a SQLite or file-system failure on the data directory into a message a person can act on. */
export function describeDatabaseError(error: unknown, dataDir: string): unknown {
  if (error instanceof DataDirError) return error;
  const file = join(dataDir, DATABASE_FILE);
  if (isDamagedDatabaseError(error))
    return damagedDatabaseError(file, error instanceof Error ? error.message : String(error));
  return describeFileSystemError(error, dataDir, file) ?? error;
}

/** Opens (creating if needed) the data directory's database, in WAL mode with foreign keys, migrated. */
export function openDatabase(dataDir: string, options: OpenDatabaseOptions = {}): Db {
  let db: Db;
  try {
    makePrivateDir(dataDir);
    makePrivateDatabase(join(dataDir, DATABASE_FILE));
    db = new Database(
      join(dataDir, DATABASE_FILE),
      options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding },
    );
  } catch (error) {
    throw describeDatabaseError(error, dataDir);
  }
  try {
    db.pragma('journal_mode = WAL');
    // NORMAL in WAL mode loses nothing a process crash could lose: a committed transaction is in the
    // WAL before the call returns. Only an OS crash or power loss can drop the newest commits.
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    if (options.check === true) {
      const problems = db.pragma('quick_check(3)', { simple: false }) as Array<{ quick_check: string }>;
      const found = problems.map((row) => row.quick_check).filter((text) => text !== 'ok');
      if (found.length > 0) throw damagedDatabaseError(join(dataDir, DATABASE_FILE), found.join('; '));
    }
    migrate(db, options.migrations ?? MIGRATIONS);
    // SQLite quietly opens a file it may not write as read-only; find out now, not at the first turn.
    probeWritable(db);
    return db;
  } catch (error) {
    db.close();
    throw describeDatabaseError(error, dataDir);
  }
}

/** Rewrites the schema version in place: fails with SQLITE_READONLY when the file cannot be written. */
function probeWritable(db: Db): void {
  db.pragma(`user_version = ${schemaVersion(db)}`);
}

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** Applies, each in its own transaction, every migration newer than the database. */
export function migrate(db: Db, migrations: readonly Migration[]): void {
  const current = schemaVersion(db);
  const newest = migrations.at(-1)?.version ?? 0;
  if (current > newest) {
    throw new Error(
      `This data directory was written by a newer Cairn (schema ${current}; this build knows up to ${newest}). Update Cairn to open it.`,
    );
  }
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    db.transaction(() => {
      db.exec(migration.up);
      db.pragma(`user_version = ${migration.version}`);
    })();
  }
}
