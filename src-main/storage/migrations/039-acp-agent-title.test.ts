import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database';
import { MIGRATIONS } from './index';

describe('migration 39: ACP agent title', () => {
  it('keeps the checkpoints of an older database, with no title, and takes one', () => {
    const db = new Database(':memory:');
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version < 39),
    );
    db.prepare(
      "INSERT INTO sessions (session_id, title, title_source, connection_id, permission_mode, revision, created_at, updated_at) VALUES ('s1', 'S', 'default', 'c', 'ask', 1, 1, 1)",
    ).run();
    db.prepare(
      "INSERT INTO acp_checkpoints (session_id, acp_session_id, instance_id, agent_name, agent_version, updated_at) VALUES ('s1', 'a1', 'i1', 'agent', '1.0', 5)",
    ).run();
    migrate(db, MIGRATIONS);
    expect(schemaVersion(db)).toBeGreaterThanOrEqual(39);
    expect(db.prepare('SELECT agent_name AS name, agent_title AS title FROM acp_checkpoints').get()).toEqual({
      name: 'agent',
      title: null,
    });
    db.prepare("UPDATE acp_checkpoints SET agent_title = 'Agent' WHERE session_id = 's1'").run();
    expect(db.prepare('SELECT agent_title AS title FROM acp_checkpoints').get()).toEqual({ title: 'Agent' });
  });
});
