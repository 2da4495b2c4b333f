import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database';
import { migration001Initial } from './001-initial';
import { migration002ConnectionsAndUsage } from './002-connections-and-usage';
import { migration003Interactions } from './003-interactions';
import { migration004ShellRuns } from './004-shell-runs';
import { migration005Goals } from './005-goals';

describe('migration 5: goals', () => {
  it('upgrades a version-4 database, keeps its turns, and allows one current goal per session', () => {
    const db = new Database(':memory:');
    const before = [
      migration001Initial,
      migration002ConnectionsAndUsage,
      migration003Interactions,
      migration004ShellRuns,
    ];
    migrate(db, before);
    db.exec(`
      INSERT INTO sessions (session_id, title, title_source, connection_id, permission_mode, revision, created_at, updated_at)
        VALUES ('s1', 'Kept', 'user', 'offline-demo', 'ask', 1, 0, 0);
      INSERT INTO turns (session_id, turn_id, ordinal, origin, text, max_steps, status, latest_run_id, created_at, updated_at)
        VALUES ('s1', 't1', 1, 'user', 'hello', 25, 'completed', 'r1', 0, 0);`);
    migrate(db, [...before, migration005Goals]);
    expect(schemaVersion(db)).toBe(5);
    expect(db.prepare('SELECT goal_id FROM turns WHERE turn_id = ?').pluck().get('t1')).toBeNull();
    const insert = db.prepare(
      "INSERT INTO goals (goal_id, session_id, objective, status, revision, created_by, created_at, updated_at) VALUES (?, 's1', 'o', 'active', 1, 'person', 0, 0)",
    );
    insert.run('g1');
    expect(() => insert.run('g2')).toThrow(/UNIQUE/);
    db.prepare("UPDATE goals SET cleared = 1 WHERE goal_id = 'g1'").run();
    insert.run('g2');
  });
});
