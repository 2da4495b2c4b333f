import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database';
import { MIGRATIONS } from './index';

describe('migration 11: permission grant revocations', () => {
  it('upgrades a version-10 database; its approvals keep their answers and no grant starts revoked', () => {
    const db = new Database(':memory:');
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 10),
    );
    db.exec(`
      INSERT INTO sessions (session_id, title, title_source, connection_id, permission_mode, revision, created_at, updated_at)
        VALUES ('s1', 'Kept', 'user', 'offline-demo', 'ask', 1, 0, 0);
      INSERT INTO interactions (interaction_id, session_id, turn_id, run_id, tool_call_id, request, status, answer, created_at, updated_at)
        VALUES ('i1', 's1', 't1', 'r1', 'c1', '{"kind":"permission","toolName":"run_shell"}', 'answered', '{"action":"accept","decision":"allow_session"}', 0, 0);`);
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 11),
    );
    expect(schemaVersion(db)).toBe(11);
    expect(db.prepare("SELECT answer, grant_revoked_at FROM interactions WHERE interaction_id = 'i1'").get()).toEqual({
      answer: '{"action":"accept","decision":"allow_session"}',
      grant_revoked_at: null,
    });
  });
});
