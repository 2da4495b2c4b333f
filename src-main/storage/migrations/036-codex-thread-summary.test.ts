import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database';
import { MIGRATIONS } from './index';

describe('migration 36: codex thread summary', () => {
  it('keeps the threads of a version-35 database, owing no summary, and accepts only 0 or 1', () => {
    const db = new Database(':memory:');
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 35),
    );
    db.prepare("INSERT INTO codex_threads (thread_id, session_id, created_at) VALUES ('th1', 's1', 5)").run();
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 36),
    );
    expect(schemaVersion(db)).toBe(36);
    expect(db.prepare('SELECT session_id AS sessionId, summary_due AS due FROM codex_threads').get()).toEqual({
      sessionId: 's1',
      due: 0,
    });
    db.prepare("UPDATE codex_threads SET summary_due = 1 WHERE thread_id = 'th1'").run();
    expect(() => db.prepare("UPDATE codex_threads SET summary_due = 2 WHERE thread_id = 'th1'").run()).toThrow();
  });
});
