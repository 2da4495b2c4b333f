import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database';
import { MIGRATIONS } from './index';

describe('migration 7: workhub decisions', () => {
  it('keeps the actions recorded before it and allows one decision per request', () => {
    const db = new Database(':memory:');
    migrate(db, MIGRATIONS.filter((migration) => migration.version <= 6));
    db.prepare("INSERT INTO workhub_actions (action_id, proposal, result, created_at) VALUES ('a1', '{}', '{}', 1)").run();
    migrate(db, MIGRATIONS.filter((migration) => migration.version <= 7));
    expect(schemaVersion(db)).toBe(7);
    expect(db.prepare("SELECT request_id, error FROM workhub_actions WHERE action_id = 'a1'").get()).toEqual({ request_id: null, error: null });
    const decide = db.prepare("INSERT INTO workhub_decisions (request_id, status, decision, created_at) VALUES ('r1', ?, '{}', 1)");
    decide.run('cancelled');
    expect(() => decide.run('done')).toThrow(/UNIQUE/);
    expect(() => db.prepare("INSERT INTO workhub_decisions (request_id, status, decision, created_at) VALUES ('r2', 'superseded', '{}', 1)").run()).toThrow(/CHECK/);
  });
});
