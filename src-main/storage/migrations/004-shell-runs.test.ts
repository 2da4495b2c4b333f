import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database';
import { migration001Initial } from './001-initial';
import { migration002ConnectionsAndUsage } from './002-connections-and-usage';
import { migration003Interactions } from './003-interactions';
import { migration004ShellRuns } from './004-shell-runs';
import type { Migration } from './migration';

const UP_TO_3: readonly Migration[] = [migration001Initial, migration002ConnectionsAndUsage, migration003Interactions];
const UP_TO_4: readonly Migration[] = [...UP_TO_3, migration004ShellRuns];

describe('migration 4: shell runs', () => {
  it.each([1, 2, 3])('upgrades a version-%i database and keeps its sessions', (from) => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, UP_TO_3.slice(0, from));
    expect(schemaVersion(db)).toBe(from);
    db.prepare(
      "INSERT INTO sessions (session_id, title, title_source, connection_id, permission_mode, revision, created_at, updated_at) VALUES ('s1', 'Kept', 'user', 'offline-demo', 'ask', 1, 0, 0)",
    ).run();

    migrate(db, UP_TO_4);

    expect(schemaVersion(db)).toBe(4);
    expect(db.prepare('SELECT title FROM sessions').pluck().get()).toBe('Kept');
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all();
    expect(tables).toEqual(expect.arrayContaining(['sessions', 'interactions', 'connections', 'shell_runs']));
    const columns = db.prepare("SELECT name FROM pragma_table_info('shell_runs')").pluck().all();
    expect(columns).toEqual([
      'shell_run_id',
      'session_id',
      'turn_id',
      'run_id',
      'tool_call_id',
      'command',
      'cwd',
      'status',
      'exit_code',
      'signal',
      'pid',
      'started_at',
      'ended_at',
      'stdout_tail',
      'stderr_tail',
      'stdout_truncated',
      'stderr_truncated',
      'failure_message',
    ]);
    db.close();
  });

  it('refuses a status outside the closed set and cascades with its session', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, UP_TO_4);
    db.prepare(
      "INSERT INTO sessions (session_id, title, title_source, connection_id, permission_mode, revision, created_at, updated_at) VALUES ('s1', 'T', 'user', 'c', 'ask', 1, 0, 0)",
    ).run();
    const insert = db.prepare(
      "INSERT INTO shell_runs (shell_run_id, session_id, turn_id, run_id, command, cwd, status, started_at) VALUES (?, 's1', 't1', 'r1', 'true', '/tmp', ?, 0)",
    );
    insert.run('sh1', 'running');
    expect(() => insert.run('sh2', 'failed')).toThrow(/CHECK constraint/);
    db.prepare("DELETE FROM sessions WHERE session_id = 's1'").run();
    expect(db.prepare('SELECT count(*) FROM shell_runs').pluck().get()).toBe(0);
    db.close();
  });
});
