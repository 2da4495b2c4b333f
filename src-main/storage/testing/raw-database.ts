import Database from 'better-sqlite3';
import { join } from 'node:path';
import { DATABASE_FILE } from '../database';

/** For tests: runs `work` on the data directory's database directly, as another program could. */
export function withRawDatabase<T>(dataDir: string, work: (db: Database.Database) => T): T {
  const db = new Database(join(dataDir, DATABASE_FILE));
  try {
    return work(db);
  } finally {
    db.close();
  }
}
