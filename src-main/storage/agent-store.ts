import type { AgentChildRecord } from '../../src-shared/agent-model';
import type { Db } from './database';

export interface NewAgentChild extends AgentChildRecord {
  readonly systemPrompt: string;
  readonly toolNames: readonly string[] | null;
}

export type StoredAgentChild = NewAgentChild;

/** Child sessions (subagents) and their links into the tree that spawned them. */
export interface AgentStore {
  insert(child: NewAgentChild): StoredAgentChild;
  get(childSessionId: string): StoredAgentChild | null;
  bySpawnId(spawnId: string): StoredAgentChild | null;
  /** Direct children of a session, oldest first. */
  childrenOf(parentSessionId: string): StoredAgentChild[];
  /** Every child link, oldest first (at most `limit`). */
  all(limit: number): StoredAgentChild[];
  /** Every descendant of a root, oldest first. */
  descendantsOf(rootSessionId: string): StoredAgentChild[];
  /** How many children one parent turn started. */
  countForTurn(parentSessionId: string, parentTurnId: string): number;
  /** Records the tree's fail-stop; false when it was recorded already (the first reason stays). */
  markTreeFailed(rootSessionId: string, reason: string, now: number): boolean;
  treeFailure(rootSessionId: string): string | null;
  /** Forgets what is kept per tree (its fail-stop) once its root session is removed. */
  forgetTree(rootSessionId: string): void;
  /** Remembers that the person deleted the child a spawn started (kept while its parent session is). */
  rememberRemovedSpawn(
    child: Pick<AgentChildRecord, 'spawnId' | 'parentSessionId' | 'childSessionId'>,
    now: number,
  ): void;
  /** Whether the child this spawn started was deleted. */
  spawnRemoved(spawnId: string): boolean;
}

interface Row {
  child_session_id: string;
  spawn_id: string;
  root_session_id: string;
  parent_session_id: string;
  parent_turn_id: string;
  parent_run_id: string;
  parent_tool_call_id: string;
  depth: number;
  agent_id: string;
  agent_name: string;
  system_prompt: string;
  tool_names: string | null;
  task: string;
  initial_turn_id: string;
  created_at: number;
}

function toRecord(row: Row): StoredAgentChild {
  return {
    childSessionId: row.child_session_id,
    spawnId: row.spawn_id,
    rootSessionId: row.root_session_id,
    parentSessionId: row.parent_session_id,
    parentTurnId: row.parent_turn_id,
    parentRunId: row.parent_run_id,
    parentToolCallId: row.parent_tool_call_id,
    depth: row.depth,
    agentId: row.agent_id,
    agentName: row.agent_name,
    systemPrompt: row.system_prompt,
    toolNames: row.tool_names === null ? null : (JSON.parse(row.tool_names) as string[]),
    task: row.task,
    initialTurnId: row.initial_turn_id,
    createdAt: row.created_at,
  };
}

export function createAgentStore(db: Db): AgentStore {
  const insert = db.prepare(`
    INSERT INTO agent_children (child_session_id, spawn_id, root_session_id, parent_session_id, parent_turn_id, parent_run_id,
                                parent_tool_call_id, depth, agent_id, agent_name, system_prompt, tool_names, task, initial_turn_id, created_at)
    VALUES (@childSessionId, @spawnId, @rootSessionId, @parentSessionId, @parentTurnId, @parentRunId,
            @parentToolCallId, @depth, @agentId, @agentName, @systemPrompt, @toolNames, @task, @initialTurnId, @createdAt)`);
  const get = db.prepare<[string], Row>('SELECT * FROM agent_children WHERE child_session_id = ?');
  const bySpawn = db.prepare<[string], Row>('SELECT * FROM agent_children WHERE spawn_id = ?');
  const children = db.prepare<[string], Row>(
    'SELECT * FROM agent_children WHERE parent_session_id = ? ORDER BY created_at, rowid',
  );
  const all = db.prepare<[number], Row>('SELECT * FROM agent_children ORDER BY created_at, rowid LIMIT ?');
  const descendants = db.prepare<[string], Row>(
    'SELECT * FROM agent_children WHERE root_session_id = ? ORDER BY created_at, rowid',
  );
  const countForTurn = db.prepare<[string, string], number>(
    'SELECT COUNT(*) FROM agent_children WHERE parent_session_id = ? AND parent_turn_id = ?',
  );
  const markFailed = db.prepare(
    'INSERT OR IGNORE INTO agent_tree_failures (root_session_id, reason, failed_at) VALUES (?, ?, ?)',
  );
  const failure = db.prepare<[string], string>('SELECT reason FROM agent_tree_failures WHERE root_session_id = ?');
  const forgetFailure = db.prepare('DELETE FROM agent_tree_failures WHERE root_session_id = ?');
  const rememberRemoved = db.prepare(
    'INSERT OR IGNORE INTO agent_removed_spawns (spawn_id, parent_session_id, child_session_id, removed_at) VALUES (?, ?, ?, ?)',
  );
  const removedSpawn = db.prepare<[string], number>('SELECT 1 FROM agent_removed_spawns WHERE spawn_id = ?');

  return {
    insert(child) {
      insert.run({ ...child, toolNames: child.toolNames === null ? null : JSON.stringify(child.toolNames) });
      const row = get.get(child.childSessionId);
      if (row === undefined) throw new Error(`Child ${child.childSessionId} vanished after insert`);
      return toRecord(row);
    },
    get(childSessionId) {
      const row = get.get(childSessionId);
      return row === undefined ? null : toRecord(row);
    },
    bySpawnId(spawnId) {
      const row = bySpawn.get(spawnId);
      return row === undefined ? null : toRecord(row);
    },
    childrenOf: (parentSessionId) => children.all(parentSessionId).map(toRecord),
    all: (limit) => all.all(limit).map(toRecord),
    descendantsOf: (rootSessionId) => descendants.all(rootSessionId).map(toRecord),
    countForTurn: (parentSessionId, parentTurnId) => countForTurn.pluck().get(parentSessionId, parentTurnId) ?? 0,
    markTreeFailed: (rootSessionId, reason, now) => markFailed.run(rootSessionId, reason, now).changes > 0,
    treeFailure: (rootSessionId) => failure.pluck().get(rootSessionId) ?? null,
    forgetTree: (rootSessionId) => void forgetFailure.run(rootSessionId),
    rememberRemovedSpawn: (child, now) =>
      void rememberRemoved.run(child.spawnId, child.parentSessionId, child.childSessionId, now),
    spawnRemoved: (spawnId) => removedSpawn.pluck().get(spawnId) !== undefined,
  };
}
