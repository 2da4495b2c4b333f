import Database from 'better-sqlite3';
import { join } from 'node:path';
import { DATABASE_FILE } from '../storage/database';

export interface ExecutedStatement {
  readonly sql: string;
  readonly args: readonly unknown[];
}

export interface StatementRecorder {
  /** What ran (with its arguments) between start() and stop(), on any connection prepared after install. */
  readonly executed: readonly ExecutedStatement[];
  start(): void;
  stop(): void;
  /** Puts better-sqlite3's prepare back. */
  uninstall(): void;
}

/** Records every statement prepared from now on when it runs, for checking what an operation reads. */
export function installStatementRecorder(): StatementRecorder {
  const executed: ExecutedStatement[] = [];
  let recording = false;
  const prototype = Database.prototype as unknown as { prepare: (sql: string) => Record<string, unknown> };
  const prepare = prototype.prepare;
  prototype.prepare = function (this: unknown, sql: string) {
    const statement = prepare.call(this, sql);
    for (const method of ['run', 'get', 'all', 'iterate']) {
      const original = statement[method] as (...args: unknown[]) => unknown;
      statement[method] = function (this: unknown, ...args: unknown[]) {
        if (recording) executed.push({ sql, args });
        return original.apply(this, args);
      };
    }
    return statement;
  };
  return {
    executed,
    start: () => (recording = true),
    stop: () => (recording = false),
    uninstall: () => (prototype.prepare = prepare),
  };
}

/** SQLite's plan for each statement (EXPLAIN QUERY PLAN with its arguments) in a data directory's database. */
export function queryPlans(dataDir: string, statements: readonly ExecutedStatement[]): string[][] {
  const db = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
  try {
    return statements.map(({ sql, args }) =>
      db
        .prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
        .all(...args)
        .map((row) => row.detail),
    );
  } finally {
    db.close();
  }
}
