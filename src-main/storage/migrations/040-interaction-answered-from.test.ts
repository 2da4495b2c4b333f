import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database';
import { createInteractionStore } from '../interaction-store';
import { MIGRATIONS } from './index';

describe('migration 40: the device an interaction was answered from', () => {
  it('keeps older answers, which read as answered on the desktop (no answeredFrom), and records a device from then on', () => {
    const db = new Database(':memory:');
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version < 40),
    );
    db.prepare(
      "INSERT INTO sessions (session_id, title, title_source, connection_id, permission_mode, revision, created_at, updated_at) VALUES ('s1', 'S', 'default', 'c', 'ask', 1, 1, 1)",
    ).run();
    const request = JSON.stringify({
      kind: 'permission',
      toolName: 'run_shell',
      summary: 'Run ls',
      preview: { kind: 'command', command: 'ls', cwd: '/w' },
    });
    db.prepare(
      `INSERT INTO interactions (interaction_id, session_id, turn_id, run_id, tool_call_id, request, status, answer, created_at, updated_at)
       VALUES ('old', 's1', 't1', 'r1', 'c1', ?, 'answered', '{"action":"accept","decision":"allow_once"}', 1, 2)`,
    ).run(request);
    migrate(db, MIGRATIONS);
    expect(schemaVersion(db)).toBeGreaterThanOrEqual(40);
    const store = createInteractionStore(db);
    const old = store.get('old');
    expect(old).toMatchObject({ status: 'answered', answer: { decision: 'allow_once' } });
    expect(old).not.toHaveProperty('answeredFrom');

    store.insert({
      interactionId: 'new',
      sessionId: 's1',
      turnId: 't2',
      runId: 'r2',
      toolCallId: 'c2',
      request: JSON.parse(request) as never,
      now: 3,
    });
    store.noteAnsweredFrom('new', 'Pixel 9');
    store.settle('new', {
      status: 'answered',
      answer: { action: 'accept', decision: 'allow_once' },
      answerSecretId: null,
      closeReason: null,
      now: 4,
    });
    expect(store.get('new')).toMatchObject({ status: 'answered', answeredFrom: 'Pixel 9' });
  });
});
