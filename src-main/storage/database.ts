import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { MIGRATIONS, type Migration } from './migrations';

export type Db = Database.Database;

export const DATABASE_FILE = 'cairn.sqlite';

export interface OpenDatabaseOptions {
  /** For the Electron build: the path of a better-sqlite3 binary built for Electron's ABI. */
  readonly nativeBinding?: string;
  readonly migrations?: readonly Migration[];
}

/** Opens (creating if needed) the data directory's database, in WAL mode with foreign keys, migrated. */
export function openDatabase(dataDir: string, options: OpenDatabaseOptions = {}): Db {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(
    join(dataDir, DATABASE_FILE),
    options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding },
  );
  try {
    db.pragma('journal_mode = WAL');
    // NORMAL in WAL mode loses nothing a process crash could lose: a committed transaction is in the
    // WAL before the call returns. Only an OS crash or power loss can drop the newest commits.
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrate(db, options.migrations ?? MIGRATIONS);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
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
