import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database';
import { MIGRATIONS } from './index';

describe('migration 29: codex app-servers', () => {
  it('upgrades a database at 28 with a table of app-server identities, states checked', () => {
    const db = new Database(':memory:');
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 28),
    );
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 29),
    );
    expect(schemaVersion(db)).toBe(29);
    db.prepare(
      "INSERT INTO codex_app_servers (session_id, pid, process_start, spawned_at, state, changed_at) VALUES ('s1', 42, 'linux:b:1', 1, 'running', 1)",
    ).run();
    expect(() =>
      db
        .prepare(
          "INSERT INTO codex_app_servers (session_id, pid, process_start, spawned_at, state, changed_at) VALUES ('s2', 43, NULL, 1, 'lost', 1)",
        )
        .run(),
    ).toThrow();
  });
});
