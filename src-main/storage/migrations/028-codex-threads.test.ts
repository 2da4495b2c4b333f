import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database';
import { MIGRATIONS } from './index';

describe('migration 28: codex threads', () => {
  it('upgrades a database at 27: each checkpointed thread is owned by its session', () => {
    const db = new Database(':memory:');
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 27),
    );
    db.prepare(
      "INSERT INTO codex_checkpoints (session_id, thread_id, instance_id, last_seq, codex_version, updated_at) VALUES ('s1', 'th1', 'i1', 0, NULL, 5)",
    ).run();
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 28),
    );
    expect(schemaVersion(db)).toBe(28);
    expect(db.prepare('SELECT session_id FROM codex_threads WHERE thread_id = ?').pluck().get('th1')).toBe('s1');
    expect(() =>
      db
        .prepare(
          "INSERT INTO codex_thread_problems (session_id, thread_id, turn_id, reason, noticed_at, choice) VALUES ('s1', 'th1', 't1', 'gone', 1, 'other')",
        )
        .run(),
    ).toThrow();
  });
});
