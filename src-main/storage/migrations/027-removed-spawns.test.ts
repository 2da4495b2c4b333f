import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database';
import { MIGRATIONS } from './index';

describe('migration 27: removed spawns', () => {
  it('upgrades a database at 26, and a removed spawn goes with its parent session', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 26),
    );
    db.prepare(
      "INSERT INTO sessions (session_id, title, title_source, connection_id, permission_mode, revision, created_at, updated_at) VALUES ('p1', 'Parent', 'user', 'c1', 'ask', 1, 0, 0)",
    ).run();
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 27),
    );
    expect(schemaVersion(db)).toBe(27);
    db.prepare(
      "INSERT INTO agent_removed_spawns (spawn_id, parent_session_id, child_session_id, removed_at) VALUES ('p1:call1', 'p1', 'c1', 5)",
    ).run();
    expect(db.prepare('SELECT COUNT(*) FROM agent_removed_spawns').pluck().get()).toBe(1);
    db.prepare("DELETE FROM sessions WHERE session_id = 'p1'").run();
    expect(db.prepare('SELECT COUNT(*) FROM agent_removed_spawns').pluck().get()).toBe(0);
  });
});
