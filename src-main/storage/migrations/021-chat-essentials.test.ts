import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database';
import { MIGRATIONS } from './index';

describe('migration 21: chat essentials', () => {
  it('indexes the final messages already written, once, and nothing else', () => {
    const db = new Database(':memory:');
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 14),
    );
    db.exec(`INSERT INTO sessions (session_id, title, title_source, connection_id, permission_mode, revision, created_at, updated_at)
      VALUES ('s1', 'T', 'user', 'c', 'ask', 1, 0, 0)`);
    const item =
      db.prepare(`INSERT INTO transcript_items (session_id, position, item_id, turn_id, run_id, kind, text, state, created_at)
      VALUES ('s1', ?, ?, 't', 'r', ?, ?, ?, 0)`);
    item.run(0, 'i0', 'user_message', 'heliotrope please', 'final');
    item.run(1, 'i1', 'assistant_message', 'heliotrope half', 'streaming');
    item.run(2, 'i2', 'tool_result', 'heliotrope output', 'final');
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 21),
    );
    expect(schemaVersion(db)).toBe(21);
    expect(db.prepare("SELECT text FROM message_search WHERE message_search MATCH 'heliotrope'").pluck().all()).toEqual(
      ['heliotrope please'],
    );
    expect(db.prepare('SELECT count(*) FROM session_preferences').pluck().get()).toBe(0);
  });
});
