import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database';
import { createCheckpointStore } from '../checkpoint-store';
import { createOffloadUseStore } from '../offload-use-store';
import { MIGRATIONS } from './index';

describe('migration 46: what removed sessions leave to delete (offloaded outputs, checkpoint refs)', () => {
  it('keeps the sessions, and from then on queues a handle for release when its last session is removed', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version < 46),
    );
    const insert = db.prepare(
      "INSERT INTO sessions (session_id, title, title_source, connection_id, permission_mode, revision, created_at, updated_at) VALUES (?, 'S', 'default', 'c', 'ask', 1, 1, 1)",
    );
    insert.run('s1');
    insert.run('s2');
    migrate(db, MIGRATIONS);
    expect(schemaVersion(db)).toBeGreaterThanOrEqual(46);
    expect(db.prepare('SELECT COUNT(*) AS n FROM sessions').get()).toEqual({ n: 2 });
    const uses = createOffloadUseStore(db);
    uses.note('h1', 's1');
    uses.note('h1', 's1');
    uses.note('h1', 's2');
    db.prepare('DELETE FROM sessions WHERE session_id = ?').run('s1');
    expect(uses.released()).toEqual([]);
    expect(uses.isUsed('h1')).toBe(true);
    db.prepare('DELETE FROM sessions WHERE session_id = ?').run('s2');
    expect(uses.released()).toEqual(['h1']);
    expect(uses.isUsed('h1')).toBe(false);
  });

  it('queues the change sets of a removed session for their checkpoint refs to be dropped', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS);
    db.prepare(
      "INSERT INTO sessions (session_id, title, title_source, connection_id, permission_mode, revision, created_at, updated_at) VALUES ('s1', 'S', 'default', 'c', 'ask', 1, 1, 1)",
    ).run();
    db.prepare(
      "INSERT INTO change_sets (change_set_id, session_id, turn_id, origin, workspace_path, status, created_at) VALUES ('cs1', 's1', 't1', 'turn', '/w', 'complete', 1)",
    ).run();
    const checkpoints = createCheckpointStore(db);
    expect(checkpoints.released()).toEqual([]);
    db.prepare("DELETE FROM sessions WHERE session_id = 's1'").run();
    expect(checkpoints.released()).toEqual([{ changeSetId: 'cs1', workspacePath: '/w' }]);
    checkpoints.forgetReleased('cs1');
    expect(checkpoints.released()).toEqual([]);
  });
});
