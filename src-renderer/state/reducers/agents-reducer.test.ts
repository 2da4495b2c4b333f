import { describe, expect, it } from 'vitest';
import { agentTreeId } from '../../../src-shared/agent-model';
import { agentNode } from './agent-fixtures';
import {
  applyAgentLinks,
  applyAgentTree,
  EMPTY_AGENTS,
  reduceAgentEvents,
  spawnCallKey,
  treesToReread,
} from './agents-reducer';
import { events } from './record-fixtures';

describe('the agents reducer', () => {
  it('records a child from agent.changed, grouped under its root oldest first', () => {
    const state = reduceAgentEvents(
      EMPTY_AGENTS,
      events(
        { kind: 'agent.changed', rootSessionId: 'r', child: agentNode({ childSessionId: 'c2', createdAt: 2000 }) },
        { kind: 'agent.changed', rootSessionId: 'r', child: agentNode({ childSessionId: 'c1', createdAt: 1000 }) },
        {
          kind: 'agent.changed',
          rootSessionId: 'q',
          child: agentNode({ childSessionId: 'd1', rootSessionId: 'q', parentSessionId: 'q' }),
        },
      ),
    );
    expect(state.childIdsByRoot).toEqual({ r: ['c1', 'c2'], q: ['d1'] });
    expect(state.links.c1).toMatchObject({ parentSessionId: 'r', agentName: 'Worker' });
    expect(state.links.c1).not.toHaveProperty('status');
    expect(state.nodes.c1?.status).toBe('running');
    expect(state.childBySpawnCall[spawnCallKey('q', 't1', 'spawn-t1-1')]).toBe('d1');
  });

  it('keeps the latest status, and the same root list while only statuses change', () => {
    const first = reduceAgentEvents(
      EMPTY_AGENTS,
      events({ kind: 'agent.changed', rootSessionId: 'r', child: agentNode({ childSessionId: 'c1' }) }),
    );
    const next = reduceAgentEvents(
      first,
      events({
        kind: 'agent.changed',
        rootSessionId: 'r',
        child: agentNode({ childSessionId: 'c1', status: 'cancelled', terminalReason: 'parent_stopped' }),
      }),
    );
    expect(next.nodes.c1).toMatchObject({ status: 'cancelled', terminalReason: 'parent_stopped' });
    expect(next.childIdsByRoot.r).toBe(first.childIdsByRoot.r);
  });

  it('returns the same object when nothing concerns child agents (no re-render)', () => {
    const state = reduceAgentEvents(
      EMPTY_AGENTS,
      events({ kind: 'agent.changed', rootSessionId: 'r', child: agentNode({ childSessionId: 'c1' }) }),
    );
    expect(reduceAgentEvents(state, events({ kind: 'session.removed', sessionId: 'elsewhere' }))).toBe(state);
    expect(
      reduceAgentEvents(
        state,
        events({ kind: 'agent.changed', rootSessionId: 'r', child: agentNode({ childSessionId: 'c1' }) }),
      ),
    ).toBe(state);
  });

  it('forgets a removed child', () => {
    const state = reduceAgentEvents(
      EMPTY_AGENTS,
      events(
        { kind: 'agent.changed', rootSessionId: 'r', child: agentNode({ childSessionId: 'c1' }) },
        {
          kind: 'agent.changed',
          rootSessionId: 'r',
          child: agentNode({ childSessionId: 'c2', createdAt: 2000, parentToolCallId: 'spawn-t1-2' }),
        },
      ),
    );
    const after = reduceAgentEvents(state, events({ kind: 'session.removed', sessionId: 'c1' }));
    expect(after.childIdsByRoot.r).toEqual(['c2']);
    expect(after.links.c1).toBeUndefined();
    expect(after.nodes.c1).toBeUndefined();
    expect(after.childBySpawnCall[spawnCallKey('r', 't1', 'spawn-t1-1')]).toBeUndefined();
    expect(after.childBySpawnCall[spawnCallKey('r', 't1', 'spawn-t1-2')]).toBe('c2');
  });

  it('applies agent.links without losing statuses seen, and agent.tree with its failure', () => {
    const seen = reduceAgentEvents(
      EMPTY_AGENTS,
      events({
        kind: 'agent.changed',
        rootSessionId: 'r',
        child: agentNode({ childSessionId: 'c1', status: 'waiting' }),
      }),
    );
    const {
      activity: _a,
      status: _s,
      terminalReason: _t,
      ...link
    } = agentNode({ childSessionId: 'c2', createdAt: 500 });
    const linked = applyAgentLinks(seen, [link]);
    expect(linked.childIdsByRoot.r).toEqual(['c2', 'c1']);
    expect(linked.nodes.c1?.status).toBe('waiting');
    const failed = applyAgentTree(linked, {
      treeId: agentTreeId('r'),
      rootSessionId: 'r',
      failedReason: 'The answer could not be applied',
      children: [agentNode({ childSessionId: 'c1', status: 'cancelled', terminalReason: 'tree_failed' })],
      usage: { inputTokens: 0, outputTokens: 0, costUsd: null },
    });
    expect(failed.treeFailures.r).toBe('The answer could not be applied');
    expect(failed.nodes.c1?.status).toBe('cancelled');
  });

  it('asks to re-read a tree that changed as a whole', () => {
    expect(
      treesToReread(
        events(
          { kind: 'agent.changed', rootSessionId: 'r', child: null },
          { kind: 'agent.changed', rootSessionId: 'q', child: agentNode({ childSessionId: 'x' }) },
        ),
      ),
    ).toEqual(['r']);
  });
});
