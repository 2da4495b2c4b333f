import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database';
import { MIGRATIONS } from './index';

describe('migration 9: workhub decisions', () => {
  it('keeps the actions recorded before it and allows one decision per request', () => {
    const db = new Database(':memory:');
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 8),
    );
    db.prepare(
      "INSERT INTO workhub_actions (action_id, proposal, result, created_at) VALUES ('a1', '{}', '{}', 1)",
    ).run();
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 9),
    );
    expect(schemaVersion(db)).toBe(9);
    expect(db.prepare("SELECT request_id, error FROM workhub_actions WHERE action_id = 'a1'").get()).toEqual({
      request_id: null,
      error: null,
    });
    const decide = db.prepare(
      "INSERT INTO workhub_decisions (request_id, status, decision, created_at) VALUES ('r1', ?, '{}', 1)",
    );
    decide.run('cancelled');
    expect(() => decide.run('done')).toThrow(/UNIQUE/);
    expect(() =>
      db
        .prepare(
          "INSERT INTO workhub_decisions (request_id, status, decision, created_at) VALUES ('r2', 'superseded', '{}', 1)",
        )
        .run(),
    ).toThrow(/CHECK/);
  });

  it('carries over the acts recorded before it: each request’s first act becomes its done decision, with a notice', () => {
    const db = new Database(':memory:');
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 8),
    );
    db.exec(`
      INSERT INTO sessions (session_id, title, title_source, connection_id, permission_mode, revision, next_position, created_at, updated_at)
        VALUES ('workhub', 'WorkHub', 'user', 'workhub-router', 'explore', 1, 2, 1, 1);
      INSERT INTO turns (session_id, turn_id, ordinal, origin, text, max_steps, status, latest_run_id, created_at, updated_at)
        VALUES ('workhub', 'r1', 1, 'user', 'Add the chart', 1, 'completed', 'run-1', 1, 1);
      INSERT INTO runs (run_id, session_id, turn_id, attempt, kind, status, started_at) VALUES ('run-1', 'workhub', 'r1', 1, 'initial', 'completed', 1);
      INSERT INTO transcript_items (session_id, position, item_id, turn_id, run_id, kind, text, state, created_at, data)
        VALUES ('workhub', 0, 'i0', 'r1', 'run-1', 'user_message', 'Add the chart', 'final', 1, NULL),
               ('workhub', 1, 'i1', 'r1', 'run-1', 'proposal', 'Why', 'final', 1, '{"requestId":"r1"}');
      INSERT INTO workhub_actions (action_id, proposal, result, created_at) VALUES
        ('r1.0badf00d', '{"kind":"clarify","question":"Which?"}', '{"kind":"clarified","question":"Which?"}', 5),
        ('r1.12345678', '{"kind":"clarify","question":"Hm?"}', '{"kind":"clarified","question":"Hm?"}', 6),
        ('api-act', '{"kind":"clarify","question":"Hm?"}', '{"kind":"clarified","question":"Hm?"}', 7);
    `);
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 9),
    );
    expect(db.prepare('SELECT action_id, request_id FROM workhub_actions ORDER BY created_at').all()).toEqual([
      { action_id: 'r1.0badf00d', request_id: 'r1' },
      { action_id: 'r1.12345678', request_id: 'r1' },
      { action_id: 'api-act', request_id: null },
    ]);
    const notice = db
      .prepare("SELECT position, turn_id, run_id, kind, data FROM transcript_items WHERE kind = 'notice'")
      .get() as { data: string };
    expect(notice).toMatchObject({ position: 2, turn_id: 'r1', run_id: 'run-1', kind: 'notice' });
    expect(JSON.parse(notice.data)).toEqual({
      requestId: 'r1',
      workhubDecision: {
        status: 'done',
        actionId: 'r1.0badf00d',
        proposal: { kind: 'clarify', question: 'Which?' },
        result: { kind: 'clarified', question: 'Which?' },
      },
    });
    expect(db.prepare("SELECT next_position FROM sessions WHERE session_id = 'workhub'").pluck().get()).toBe(3);
  });
});
