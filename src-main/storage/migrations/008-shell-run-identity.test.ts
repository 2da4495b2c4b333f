import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database';
import { MIGRATIONS } from './index';

describe('migration 8: shell run identity', () => {
  it('upgrades a version-7 database, keeping its shell runs with no recorded identity', () => {
    const db = new Database(':memory:');
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 7),
    );
    db.exec(`
      INSERT INTO sessions (session_id, title, title_source, connection_id, permission_mode, revision, created_at, updated_at)
        VALUES ('s1', 'Kept', 'user', 'offline-demo', 'ask', 1, 0, 0);
      INSERT INTO shell_runs (shell_run_id, session_id, turn_id, run_id, command, cwd, status, pid, started_at)
        VALUES ('sh1', 's1', 't1', 'r1', 'make', '/tmp', 'running', 42, 0);`);
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 8),
    );
    expect(schemaVersion(db)).toBe(8);
    expect(db.prepare("SELECT pid, process_start FROM shell_runs WHERE shell_run_id = 'sh1'").get()).toEqual({
      pid: 42,
      process_start: null,
    });
  });
});
