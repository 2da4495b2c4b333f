import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database';
import { MIGRATIONS } from './index';

describe('migration 25: queued attachments', () => {
  it('gives queued follow-ups an attachments column, empty for the messages already queued', () => {
    const db = new Database(':memory:');
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version < 25),
    );
    db.prepare(
      "INSERT INTO sessions (session_id, title, title_source, connection_id, permission_mode, revision, created_at, updated_at) VALUES ('s1', 'S', 'default', 'offline-demo', 'ask', 1, 0, 0)",
    ).run();
    db.prepare(
      "INSERT INTO queued_messages (session_id, message_id, text, state, turn_id, created_at, updated_at) VALUES ('s1', 'm1', 'hi', 'queued', NULL, 0, 0)",
    ).run();
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 25),
    );
    expect(schemaVersion(db)).toBe(25);
    expect(db.prepare("SELECT attachments FROM queued_messages WHERE message_id = 'm1'").get()).toEqual({
      attachments: '[]',
    });
  });
});
