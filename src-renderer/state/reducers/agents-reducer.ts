import type { AgentChildRecord, AgentTree, AgentTreeNode } from '../../../src-shared/agent-model';
import type { ChangeEvent } from '../../../src-shared/events';

/** Child agents as the window knows them: every child session's link, and the latest status seen of each. */
export interface AgentsState {
  /** Every child session's link to its parent, by child session id. */
  readonly links: Readonly<Record<string, AgentChildRecord>>;
  /** The latest status of each child known here (from agent.tree or agent.changed), by child session id. */
  readonly nodes: Readonly<Record<string, AgentTreeNode>>;
  /** Each root's descendants, oldest first (stable arrays: they change only when a link is added or goes). */
  readonly childIdsByRoot: Readonly<Record<string, readonly string[]>>;
  /** Why a tree was failed-stopped, by root session id. */
  readonly treeFailures: Readonly<Record<string, string>>;
  /** The child each spawn_agent call started, by `spawnCallKey` (what a spawn card looks up). */
  readonly childBySpawnCall: Readonly<Record<string, string>>;
}

export const EMPTY_AGENTS: AgentsState = {
  links: {},
  nodes: {},
  childIdsByRoot: {},
  treeFailures: {},
  childBySpawnCall: {},
};

/** Names the tool call that started a child: the parent's session, turn and tool call id. */
export function spawnCallKey(parentSessionId: string, parentTurnId: string, parentToolCallId: string): string {
  return JSON.stringify([parentSessionId, parentTurnId, parentToolCallId]);
}

const spawnKeyOf = (link: AgentChildRecord) =>
  spawnCallKey(link.parentSessionId, link.parentTurnId, link.parentToolCallId);

/** The link part of a tree node (what agent.links answers). */
function linkOf(node: AgentTreeNode): AgentChildRecord {
  const { activity: _activity, status: _status, terminalReason: _reason, ...link } = node;
  return link;
}

function sameLink(a: AgentChildRecord | undefined, b: AgentChildRecord): boolean {
  return (
    a !== undefined &&
    a.childSessionId === b.childSessionId &&
    a.rootSessionId === b.rootSessionId &&
    a.parentSessionId === b.parentSessionId
  );
}

/** Rebuilds the per-root lists for the roots whose links changed; other roots keep their arrays. */
function regroup(
  state: AgentsState,
  links: Readonly<Record<string, AgentChildRecord>>,
  roots: ReadonlySet<string>,
): Readonly<Record<string, readonly string[]>> {
  if (roots.size === 0) return state.childIdsByRoot;
  const next: Record<string, readonly string[]> = { ...state.childIdsByRoot };
  for (const root of roots) {
    const ids = Object.values(links)
      .filter((link) => link.rootSessionId === root)
      .sort((a, b) => a.createdAt - b.createdAt || (a.childSessionId < b.childSessionId ? -1 : 1))
      .map((link) => link.childSessionId);
    if (ids.length === 0) delete next[root];
    else next[root] = ids;
  }
  return next;
}

/** Adds or replaces links (and nodes, when given); the same object back when nothing changed. */
function withChildren(
  state: AgentsState,
  records: readonly AgentChildRecord[],
  nodes: readonly AgentTreeNode[],
): AgentsState {
  let links = state.links;
  let childBySpawnCall = state.childBySpawnCall;
  const roots = new Set<string>();
  for (const record of records) {
    if (sameLink(links[record.childSessionId], record)) continue;
    const previous = links[record.childSessionId];
    if (previous !== undefined) roots.add(previous.rootSessionId);
    links = { ...links, [record.childSessionId]: record };
    childBySpawnCall = { ...childBySpawnCall, [spawnKeyOf(record)]: record.childSessionId };
    roots.add(record.rootSessionId);
  }
  let nodesById = state.nodes;
  for (const node of nodes) {
    const known = nodesById[node.childSessionId];
    if (
      known !== undefined &&
      known.status === node.status &&
      known.activity === node.activity &&
      known.terminalReason === node.terminalReason
    )
      continue;
    nodesById = { ...nodesById, [node.childSessionId]: node };
  }
  if (links === state.links && nodesById === state.nodes) return state;
  return { ...state, links, nodes: nodesById, childIdsByRoot: regroup(state, links, roots), childBySpawnCall };
}

/** Applies an agent.links answer: every link the host knows (statuses already seen are kept). */
export function applyAgentLinks(state: AgentsState, records: readonly AgentChildRecord[]): AgentsState {
  return withChildren(state, records, []);
}

/** Applies an agent.tree answer: its children's links and statuses, and whether the tree failed. */
export function applyAgentTree(state: AgentsState, tree: AgentTree): AgentsState {
  const next = withChildren(state, tree.children.map(linkOf), tree.children);
  return withTreeFailure(next, tree.rootSessionId, tree.failedReason);
}

function withTreeFailure(state: AgentsState, rootSessionId: string, reason: string | null): AgentsState {
  if ((state.treeFailures[rootSessionId] ?? null) === reason) return state;
  const treeFailures = { ...state.treeFailures };
  if (reason === null) delete treeFailures[rootSessionId];
  else treeFailures[rootSessionId] = reason;
  return { ...state, treeFailures };
}

/** Forgets a removed session: as a child (its link and status), and as a root (its children's links stay until re-read). */
function withoutSession(state: AgentsState, sessionId: string): AgentsState {
  const link = state.links[sessionId];
  if (link === undefined) return state;
  const { [sessionId]: _link, ...links } = state.links;
  const { [sessionId]: _node, ...nodes } = state.nodes;
  const spawnKey = spawnKeyOf(link);
  const { [spawnKey]: _spawn, ...rest } = state.childBySpawnCall;
  const childBySpawnCall = state.childBySpawnCall[spawnKey] === sessionId ? rest : state.childBySpawnCall;
  return {
    ...state,
    links,
    nodes,
    childIdsByRoot: regroup(state, links, new Set([link.rootSessionId])),
    childBySpawnCall,
  };
}

/** Applies a batch of host events; the same object back when none concerns child agents. */
export function reduceAgentEvents(state: AgentsState, batch: readonly ChangeEvent[]): AgentsState {
  let next = state;
  for (const event of batch) {
    if (event.kind === 'agent.changed' && event.child !== null)
      next = withChildren(next, [linkOf(event.child)], [event.child]);
    else if (event.kind === 'session.removed') next = withoutSession(next, event.sessionId);
  }
  return next;
}

/** The roots whose whole tree changed (an agent.changed without a child, e.g. a fail-stop): re-read with agent.tree. */
export function treesToReread(batch: readonly ChangeEvent[]): string[] {
  const roots = new Set<string>();
  for (const event of batch) if (event.kind === 'agent.changed' && event.child === null) roots.add(event.rootSessionId);
  return [...roots];
}
