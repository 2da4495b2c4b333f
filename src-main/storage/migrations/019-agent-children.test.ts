import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database';
import { MIGRATIONS } from './index';

describe('migration 19: agent children', () => {
  it('upgrades an older database, keeps its sessions, makes spawn ids unique and drops a child with its session', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version < 19),
    );
    db.exec(`INSERT INTO sessions (session_id, title, title_source, connection_id, permission_mode, revision, created_at, updated_at)
      VALUES ('root', 'Kept', 'user', 'c1', 'ask', 1, 0, 0), ('child', 'Child', 'auto', 'c1', 'explore', 1, 0, 0);`);
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 19),
    );
    expect(schemaVersion(db)).toBe(19);
    expect(db.prepare('SELECT title FROM sessions WHERE session_id = ?').pluck().get('root')).toBe('Kept');
    const insert =
      db.prepare(`INSERT INTO agent_children (child_session_id, spawn_id, root_session_id, parent_session_id, parent_turn_id,
      parent_run_id, parent_tool_call_id, depth, agent_id, agent_name, system_prompt, task, initial_turn_id, created_at)
      VALUES (?, 'spawn-1', 'root', 'root', 't1', 'r1', 'call-1', 1, 'explore', 'Explore', 'prompt', 'Look', 't-child', 0)`);
    insert.run('child');
    expect(() => insert.run('child-2')).toThrow(/UNIQUE/);
    db.prepare("DELETE FROM sessions WHERE session_id = 'child'").run();
    expect(db.prepare('SELECT COUNT(*) FROM agent_children').pluck().get()).toBe(0);
  });
});
