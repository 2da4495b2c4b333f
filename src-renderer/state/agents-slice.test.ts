import { describe, expect, it, vi } from 'vitest';
import { agentTreeId, type AgentTreeNode } from '../../src-shared/agent-model';
import { selectChildStatus, selectLiveDescendantCount, selectSpawnedChildId } from './agent-selectors';
import { agentNode } from './reducers/agent-fixtures';
import { setupStore } from './test-store';

function withTree(children: AgentTreeNode[]) {
  const setup = setupStore();
  const { link } = setup;
  link.answer('agent.links', () => ({
    ok: true,
    result: { links: children.map(({ activity: _a, status: _s, terminalReason: _t, ...record }) => record) },
  }));
  link.answer('agent.tree', () => ({
    ok: true,
    result: {
      tree: {
        treeId: agentTreeId('r'),
        rootSessionId: 'r',
        failedReason: null,
        children,
        usage: { inputTokens: 0, outputTokens: 0, costUsd: null },
      },
    },
  }));
  link.answer('agent.stop', () => ({ ok: true, result: { treeId: agentTreeId('r'), stoppedChildren: 2 } }));
  // The first load ran before these answers were set: read the links again, as a resync would.
  void setup.store.getState().loadAgentLinks();
  return setup;
}

describe('the agents slice', () => {
  it('reads the links at start, and opening a child reads its tree and opens its root in the sidebar', async () => {
    const { store, link } = withTree([
      agentNode({ childSessionId: 'c1' }),
      agentNode({ childSessionId: 'c2', createdAt: 2000, parentToolCallId: 'spawn-t1-2' }),
    ]);
    await vi.waitFor(() => expect(store.getState().agents.childIdsByRoot.r).toEqual(['c1', 'c2']));
    expect(store.getState().expandedAgentRoots).toEqual({});
    store.getState().selectSession('c2');
    await vi.waitFor(() => expect(store.getState().expandedAgentRoots).toEqual({ r: true }));
    expect(link.callsOf('agent.tree')).toContainEqual({ sessionId: 'c2' });
    expect(selectSpawnedChildId('r', 't1', 'spawn-t1-2')(store.getState())).toBe('c2');
    expect(selectSpawnedChildId('r', 't2', 'spawn-t1-2')(store.getState())).toBeNull();
  });

  it('follows agent.changed: statuses and how many children a Stop also stops', async () => {
    const { store, link, frames } = withTree([
      agentNode({ childSessionId: 'c1' }),
      agentNode({ childSessionId: 'c2', createdAt: 2000 }),
    ]);
    store.getState().selectSession('r');
    await vi.waitFor(() => expect(selectLiveDescendantCount('r')(store.getState())).toBe(2));
    // A grandchild counts for the root and for its own parent; not for its sibling.
    link.push({
      kind: 'agent.changed',
      rootSessionId: 'r',
      child: agentNode({ childSessionId: 'g1', parentSessionId: 'c1', depth: 2, createdAt: 3000 }),
    });
    link.push({
      kind: 'agent.changed',
      rootSessionId: 'r',
      child: agentNode({ childSessionId: 'c2', createdAt: 2000, status: 'waiting' }),
    });
    frames.flush();
    expect(selectLiveDescendantCount('r')(store.getState())).toBe(3);
    expect(selectLiveDescendantCount('c1')(store.getState())).toBe(1);
    expect(selectLiveDescendantCount('c2')(store.getState())).toBe(0);
    expect(selectChildStatus('c2')(store.getState())).toBe('waiting');
    for (const childSessionId of ['c1', 'c2', 'g1']) {
      link.push({
        kind: 'agent.changed',
        rootSessionId: 'r',
        child: agentNode({ childSessionId, status: 'cancelled', terminalReason: 'parent_stopped' }),
      });
    }
    frames.flush();
    expect(selectLiveDescendantCount('r')(store.getState())).toBe(0);
    expect(selectChildStatus('g1')(store.getState())).toBe('cancelled');
  });

  it('a tree that changed as a whole is read again', async () => {
    const { store, link, frames } = withTree([agentNode({ childSessionId: 'c1' })]);
    await vi.waitFor(() => expect(store.getState().agents.childIdsByRoot.r).toEqual(['c1']));
    const reads = link.callsOf('agent.tree').length;
    link.push({ kind: 'agent.changed', rootSessionId: 'r', child: null });
    frames.flush();
    await vi.waitFor(() => expect(link.callsOf('agent.tree').length).toBe(reads + 1));
  });

  it('stops the tree it is aimed at, naming that tree', async () => {
    const { store, link } = withTree([]);
    await store.getState().stopAgentTree('r');
    expect(link.callsOf('agent.stop')).toEqual([
      { rootSessionId: 'r', expectedTreeId: agentTreeId('r'), source: 'stop_button' },
    ]);
  });

  it('collapses and opens a root’s children', async () => {
    const { store } = withTree([agentNode({ childSessionId: 'c1' })]);
    store.getState().setAgentChildrenOpen('r', true);
    expect(store.getState().expandedAgentRoots).toEqual({ r: true });
    store.getState().setAgentChildrenOpen('r', false);
    expect(store.getState().expandedAgentRoots).toEqual({});
  });
});
