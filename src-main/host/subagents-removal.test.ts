import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../testing/host-fixture';
import { waitFor } from '../testing/wait-for';

/** Deleting and archiving sessions that are part of an agent tree: a child goes with its parent, and nothing is orphaned. */
let t: TestHost;
let root: string;
beforeEach(async () => {
  t = await startTestHost();
  root = (await t.call('session.create', {})).session.sessionId;
});
afterEach(async () => {
  await t.close();
});

const tree = async () => (await t.call('agent.tree', { sessionId: root })).tree;
const waitForTree = (count: number, statuses: readonly string[]) =>
  waitFor(
    async () => {
      const { children } = await tree();
      return children.length === count &&
        children.every((child) => child.status !== null && statuses.includes(child.status))
        ? children
        : null;
    },
    { message: `${count} children to reach ${statuses.join('/')}`, timeoutMs: 10_000 },
  );
const exists = async (sessionId: string) => (await t.invoke('session.get', { sessionId })).ok;

describe('deleting a session of an agent tree', () => {
  it('deleting the root stops and deletes every descendant: no child session, link or running turn is left', async () => {
    // A child that holds, and a child whose own child holds (depth 2).
    await t.call('turn.start', {
      sessionId: root,
      turnId: 't1',
      text: `/spawn-many 2 worker ${JSON.stringify('/spawn worker "/hold" wait')} wait`,
    });
    const children = await waitFor(
      async () => {
        const { children: all } = await tree();
        return all.length === 4 && all.every((child) => child.status === 'running') ? all : null;
      },
      { message: 'two children and two grandchildren running', timeoutMs: 10_000 },
    );
    const ids = children.map((child) => child.childSessionId);
    expect(children.map((child) => child.depth).sort()).toEqual([1, 1, 2, 2]);

    await t.call('session.remove', { sessionId: root });

    for (const id of [root, ...ids]) expect(await exists(id)).toBe(false);
    expect((await t.call('agent.links', {})).links).toEqual([]);
    expect((await t.call('session.list', {})).sessions.map((session) => session.sessionId)).not.toContain(ids[0]);
    const removed = t.events
      .filter((event) => event.kind === 'session.removed')
      .map((event) => (event.kind === 'session.removed' ? event.sessionId : ''));
    expect(removed.sort()).toEqual([root, ...ids].sort());
    // Each session's run was stopped before its session went: none is left running in the host.
    for (const id of [root, ...ids]) {
      const cancels = t.events.filter(
        (event) => event.kind === 'turn.changed' && event.turn.sessionId === id && event.turn.status === 'cancelled',
      );
      expect(
        cancels.map((event) => (event.kind === 'turn.changed' ? event.turn.latestRun.terminalReason : null)),
      ).toEqual(['session_removed']);
    }
    // Nothing is announced about a removed child after its removal.
    const lastRemoval = t.events.findLastIndex((event) => event.kind === 'session.removed');
    await t.call('session.create', {}); // a later operation, so anything queued behind the removal has been delivered
    expect(
      t.events.slice(lastRemoval + 1).filter((event) => event.kind === 'agent.changed' && event.child !== null),
    ).toEqual([]);
  });

  it('deleting a live child stops it first; the parent waiting on it is told it was removed and goes on', async () => {
    await t.call('turn.start', { sessionId: root, turnId: 't1', text: '/spawn-many 2 worker "/hold" wait' });
    const [first, second] = await waitForTree(2, ['running']);

    await t.call('session.remove', { sessionId: first!.childSessionId });
    expect(await exists(first!.childSessionId)).toBe(false);
    expect((await tree()).children.map((child) => child.childSessionId)).toEqual([second!.childSessionId]);
    expect((await t.call('turn.query', { sessionId: root, turnId: 't1' })).turn.status).toBe('running');

    // Stopping the other child alone: the parent's wait ends, and its tool result says how each child ended.
    await t.call('turn.stop', { sessionId: second!.childSessionId, source: 'stop_button' });
    await t.waitForTurn(root, 't1', ['completed']);
    const items = (await t.call('transcript.page', { sessionId: root, limit: 100 })).items;
    const waited = items.find((item) => item.kind === 'tool_result' && item.data?.toolName === 'wait_agents');
    expect(waited?.data?.output).toEqual({
      children: [
        { childSessionId: first!.childSessionId, status: 'removed', terminalReason: 'session_removed', report: null },
        {
          childSessionId: second!.childSessionId,
          status: 'cancelled',
          terminalReason: 'stop_button',
          report: expect.stringContaining('Holding'),
        },
      ],
    });
    expect(items.map((item) => item.text).join('')).toContain('All 2 children settled: removed, cancelled.');
    expect((await t.call('agent.links', {})).links.map((link) => link.childSessionId)).toEqual([
      second!.childSessionId,
    ]);
  });
});

describe('archiving a session of an agent tree', () => {
  it('archiving the root archives (and stops) its children; unarchiving brings them back', async () => {
    await t.call('turn.start', { sessionId: root, turnId: 't1', text: '/spawn-many 2 worker "/hold"' });
    const children = await waitForTree(2, ['running']);
    const ids = children.map((child) => child.childSessionId);

    await t.call('session.archive', { sessionId: root, archived: true });
    for (const id of [root, ...ids])
      expect((await t.call('session.get', { sessionId: id })).session.archived).toBe(true);
    expect((await tree()).children.map((child) => [child.status, child.terminalReason])).toEqual([
      ['cancelled', 'session_archived'],
      ['cancelled', 'session_archived'],
    ]);
    const listed = (await t.call('session.list', {})).sessions.map((session) => session.sessionId);
    for (const id of [root, ...ids]) expect(listed).not.toContain(id);

    await t.call('session.archive', { sessionId: root, archived: false });
    for (const id of [root, ...ids])
      expect((await t.call('session.get', { sessionId: id })).session.archived).toBe(false);
  });
});
