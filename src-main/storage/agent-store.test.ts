import Database from 'better-sqlite3';
import { beforeEach, describe, expect, it } from 'vitest';
import { migrate } from './database';
import { MIGRATIONS } from './migrations';
import { createAgentStore, type AgentStore, type NewAgentChild } from './agent-store';

let db: Database.Database;
let store: AgentStore;
beforeEach(() => {
  db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  migrate(db, MIGRATIONS);
  for (const id of ['root', 'c1', 'c2', 'g1']) {
    db.prepare(
      `INSERT INTO sessions (session_id, title, title_source, connection_id, permission_mode, revision, created_at, updated_at)
      VALUES (?, ?, 'user', 'c', 'ask', 1, 0, 0)`,
    ).run(id, id);
  }
  store = createAgentStore(db);
});

function child(id: string, parent: string, depth: number, createdAt: number, turn = 't1'): NewAgentChild {
  return {
    childSessionId: id,
    spawnId: `spawn-${id}`,
    rootSessionId: 'root',
    parentSessionId: parent,
    parentTurnId: turn,
    parentRunId: 'r1',
    parentToolCallId: `call-${id}`,
    depth,
    agentId: 'worker',
    agentName: 'Worker',
    systemPrompt: 'Do it',
    toolNames: depth === 2 ? ['read_file'] : null,
    task: `task ${id}`,
    initialTurnId: `task-${id}`,
    createdAt,
  };
}

describe('agent store', () => {
  it('finds children by spawn id, parent and root, and counts a turn’s fan-out', () => {
    store.insert(child('c1', 'root', 1, 1));
    store.insert(child('c2', 'root', 1, 2, 't2'));
    store.insert(child('g1', 'c1', 2, 3));
    expect(store.bySpawnId('spawn-g1')).toMatchObject({ childSessionId: 'g1', toolNames: ['read_file'], depth: 2 });
    expect(store.childrenOf('root').map((c) => c.childSessionId)).toEqual(['c1', 'c2']);
    expect(store.descendantsOf('root').map((c) => c.childSessionId)).toEqual(['c1', 'c2', 'g1']);
    expect(store.countForTurn('root', 't1')).toBe(1);
    expect(store.get('c2')?.toolNames).toBeNull();
  });

  it('records a tree’s fail-stop once: the first reason stays', () => {
    expect(store.treeFailure('root')).toBeNull();
    expect(store.markTreeFailed('root', 'first', 1)).toBe(true);
    expect(store.markTreeFailed('root', 'second', 2)).toBe(false);
    expect(store.treeFailure('root')).toBe('first');
  });

  it('forgets a removed root’s fail-stop, and a removed child’s link goes with its session', () => {
    store.insert(child('c1', 'root', 1, 1));
    store.markTreeFailed('root', 'first', 1);
    store.forgetTree('root');
    expect(store.treeFailure('root')).toBeNull();
    db.prepare('DELETE FROM sessions WHERE session_id = ?').run('c1');
    expect(store.get('c1')).toBeNull();
    expect(store.descendantsOf('root')).toEqual([]);
  });
});
