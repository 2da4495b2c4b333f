import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database';
import { MIGRATIONS } from './index';

describe('migration 13: codex', () => {
  it('upgrades a version-12 database, keeps its sessions, and applies an (instance, sequence) pair once', () => {
    const db = new Database(':memory:');
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 12),
    );
    db.exec(`INSERT INTO sessions (session_id, title, title_source, connection_id, permission_mode, revision, created_at, updated_at)
      VALUES ('s1', 'Kept', 'user', 'c1', 'ask', 1, 0, 0);`);
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 13),
    );
    expect(schemaVersion(db)).toBe(13);
    expect(db.prepare('SELECT title FROM sessions WHERE session_id = ?').pluck().get('s1')).toBe('Kept');
    db.prepare(
      "INSERT INTO codex_checkpoints (session_id, thread_id, instance_id, updated_at) VALUES ('s1', 'th1', 'i1', 0)",
    ).run();
    const insert = db.prepare("INSERT INTO codex_applied_events (instance_id, seq, session_id) VALUES ('i1', 1, 's1')");
    insert.run();
    expect(() => insert.run()).toThrow(/UNIQUE|PRIMARY/);
  });
});
