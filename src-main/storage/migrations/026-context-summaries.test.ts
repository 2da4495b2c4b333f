import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database';
import { MIGRATIONS } from './index';

describe('migration 26: context summaries', () => {
  it('upgrades an older database, keeps its sessions, and removes a session’s summaries with it', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version < 26),
    );
    db.exec(`INSERT INTO sessions (session_id, title, title_source, connection_id, permission_mode, revision, created_at, updated_at)
      VALUES ('s1', 'Kept', 'user', 'c1', 'ask', 1, 0, 0);`);
    migrate(db, MIGRATIONS);
    expect(schemaVersion(db)).toBeGreaterThanOrEqual(26);
    expect(db.prepare('SELECT title FROM sessions WHERE session_id = ?').pluck().get('s1')).toBe('Kept');
    const insert =
      db.prepare(`INSERT INTO context_summaries (summary_id, session_id, first_position, last_position, first_item_id, first_turn,
      last_turn, text, previous_summary_id, turn_id, run_id, input_tokens, output_tokens, summary_tokens, created_at)
      VALUES (?, 's1', 0, ?, 'i0', 1, 3, 'summary', NULL, 't1', 'r1', 10, 5, 5, 0)`);
    insert.run('sum1', 9);
    expect(() => insert.run('sum2', -1)).toThrow(/CHECK/);
    db.prepare("DELETE FROM sessions WHERE session_id = 's1'").run();
    expect(db.prepare('SELECT COUNT(*) FROM context_summaries').pluck().get()).toBe(0);
  });
});
