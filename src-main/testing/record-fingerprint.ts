import Database from 'better-sqlite3';
import { join } from 'node:path';
import { DATABASE_FILE } from '../storage/database';

const TABLES = [
  'sessions',
  'turns',
  'runs',
  'ledger',
  'transcript_items',
  'queued_messages',
  'interactions',
  'connections',
  'usage_records',
  'goals',
  'shell_runs',
  'workhub_actions',
  'delegations',
  'workhub_decisions',
  'goal_controls',
] as const;

/**
 * A summary of everything in a data directory's record (row counts and a checksum of mutable
 * columns), read through a separate connection: equal fingerprints mean nothing was written.
 */
export function recordFingerprint(dataDir: string): string {
  const db = new Database(join(dataDir, DATABASE_FILE), { readonly: true, fileMustExist: true });
  try {
    const counts = TABLES.map(
      (table) => `${table}=${String(db.prepare(`SELECT count(*) FROM ${table}`).pluck().get())}`,
    );
    const sessions = db
      .prepare(
        "SELECT group_concat(session_id || ':' || revision || ':' || archived || ':' || title, '|') FROM sessions",
      )
      .pluck()
      .get();
    const runs = db.prepare("SELECT group_concat(run_id || ':' || status, '|') FROM runs").pluck().get();
    const interactions = db
      .prepare("SELECT group_concat(interaction_id || ':' || status, '|') FROM interactions")
      .pluck()
      .get();
    const goals = db
      .prepare("SELECT group_concat(goal_id || ':' || status || ':' || revision, '|') FROM goals")
      .pluck()
      .get();
    return [...counts, String(sessions), String(runs), String(interactions), String(goals)].join(';');
  } finally {
    db.close();
  }
}

/** Reads ledger rows of a run straight from the file, for assertions about what was recorded. */
export function ledgerKinds(dataDir: string, runId: string): string[] {
  const db = new Database(join(dataDir, DATABASE_FILE), { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT kind FROM ledger WHERE run_id = ? ORDER BY sequence').pluck().all(runId) as string[];
  } finally {
    db.close();
  }
}
