import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AGENT_FAN_OUT_LIMIT } from '../../src-shared/agent-model';
import type { Stores } from '../storage/stores';
import { startTestHost, useTempDirs, type TestHost } from '../testing/host-fixture';
import { waitFor } from '../testing/wait-for';

const dir = useTempDirs();
let t: TestHost;
let root: string;
beforeEach(async () => {
  t = await startTestHost();
  root = (await t.call('session.create', {})).session.sessionId;
});
afterEach(async () => {
  await t.close();
});

const tree = async (sessionId = root) => (await t.call('agent.tree', { sessionId })).tree;
const waitForChildren = (count: number, statuses: readonly string[]) =>
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

describe('subagents', () => {
  it('spawns a child that waits, and its report comes back to the parent as the tool result', async () => {
    await t.call('turn.start', { sessionId: root, turnId: 't1', text: '/spawn explore "Find the answer" wait' });
    await t.waitForTurn(root, 't1', ['completed']);
    const { children, usage } = await tree();
    expect(children).toHaveLength(1);
    const [child] = children;
    expect(child).toMatchObject({
      agentId: 'explore',
      depth: 1,
      parentSessionId: root,
      parentTurnId: 't1',
      status: 'completed',
      task: 'Find the answer',
    });
    // The explore child is narrowed to read-only, whatever the parent's mode.
    expect((await t.call('session.get', { sessionId: child!.childSessionId })).session.permissionMode).toBe('explore');
    const page = await t.call('transcript.page', { sessionId: root, limit: 100 });
    const result = page.items.find((item) => item.kind === 'tool_result' && item.data?.toolName === 'spawn_agent');
    expect(result?.data?.output).toMatchObject({
      childSessionId: child!.childSessionId,
      status: 'completed',
      report: expect.stringContaining('Find the answer'),
    });
    expect(page.items.map((item) => item.text).join('')).toContain('The explore agent completed');
    // The root's usage includes the child's.
    const rootOnly = (await t.call('usage.summary', { by: 'session', sessionId: root })).totals.inputTokens;
    expect(usage.inputTokens).toBeGreaterThan(rootOnly);
  });

  it('refuses an unknown agent and more than the fan-out limit in one turn', async () => {
    await t.call('turn.start', { sessionId: root, turnId: 't1', text: '/spawn nobody "x"' });
    await t.waitForTurn(root, 't1', ['completed']);
    expect(
      (await t.call('transcript.page', { sessionId: root, limit: 100 })).items.map((item) => item.text).join(''),
    ).toMatch(/There is no agent "nobody"/);
    await t.call('turn.start', {
      sessionId: root,
      turnId: 't2',
      text: `/spawn-many ${AGENT_FAN_OUT_LIMIT + 1} worker "/reply hi"`,
    });
    await t.waitForTurn(root, 't2', ['completed']);
    expect((await tree()).children).toHaveLength(AGENT_FAN_OUT_LIMIT);
    expect(
      (await t.call('transcript.page', { sessionId: root, limit: 200 })).items.map((item) => item.text).join(''),
    ).toMatch(/at most 8 child agents/);
  });

  it('refuses a spawn below the depth limit', async () => {
    const grandchildTask = JSON.stringify('/spawn worker "/reply deep" wait');
    const childTask = JSON.stringify(`/spawn worker ${grandchildTask} wait`);
    await t.call('turn.start', { sessionId: root, turnId: 't1', text: `/spawn worker ${childTask} wait` });
    await t.waitForTurn(root, 't1', ['completed']);
    const { children } = await tree();
    expect(children.map((child) => child.depth)).toEqual([1, 2]);
    const grandchild = children[1]!;
    const page = await t.call('transcript.page', { sessionId: grandchild.childSessionId, limit: 100 });
    // At depth 2 the agent tools are not offered at all.
    expect(page.items.map((item) => item.text).join('')).toMatch(/no tool named "spawn_agent"/);
  });

  it('Stop on the root cascades to every live descendant with parent_stopped', async () => {
    await t.call('turn.start', { sessionId: root, turnId: 't1', text: '/spawn-many 2 worker "/hold" wait' });
    await waitForChildren(2, ['running']);
    const stopped = await t.call('agent.stop', { rootSessionId: root });
    expect(stopped).toMatchObject({ treeId: `tree:${root}`, stoppedChildren: 2 });
    // Committed before agent.stop answered, although each child's backend ignores the abort for a while.
    const children = (await tree()).children;
    expect(children.map((child) => child.status)).toEqual(['cancelled', 'cancelled']);
    expect(children.map((child) => child.terminalReason)).toEqual(['parent_stopped', 'parent_stopped']);
    expect((await t.call('turn.query', { sessionId: root, turnId: 't1' })).turn.status).toBe('cancelled');
  });

  it('refuses a stop aimed at a child or at another tree and changes nothing', async () => {
    await t.call('turn.start', { sessionId: root, turnId: 't1', text: '/spawn worker "/hold"' });
    const [child] = await waitForChildren(1, ['running']);
    const asRoot = await t.invoke('agent.stop', {
      rootSessionId: child!.childSessionId,
      expectedTreeId: `tree:${root}`,
    });
    expect(asRoot.ok ? null : asRoot.error.code).toBe('operation_conflict');
    const wrongTree = await t.invoke('agent.stop', { rootSessionId: root, expectedTreeId: 'tree:elsewhere' });
    expect(wrongTree.ok ? null : wrongTree.error.code).toBe('operation_conflict');
    expect((await tree()).children[0]?.status).toBe('running');
    await t.call('agent.stop', { rootSessionId: root, expectedTreeId: `tree:${root}` });
    await waitForChildren(1, ['cancelled']);
  });

  it('after the host ends with children running: truthful statuses, resuming the root returns the same child, none runs twice', async () => {
    const dataDir = dir();
    const first = await startTestHost({ dataDir });
    const parent = (await first.call('session.create', {})).session.sessionId;
    await first.call('turn.start', { sessionId: parent, turnId: 't1', text: '/spawn worker "/hold" wait' });
    const child = await waitFor(
      async () =>
        (await first.call('agent.tree', { sessionId: parent })).tree.children.find(
          (node) => node.status === 'running',
        ) ?? null,
      {
        message: 'the child to run',
      },
    );
    await first.host.close();
    const second = await startTestHost({ dataDir });
    try {
      const after = (await second.call('agent.tree', { sessionId: parent })).tree;
      expect(after.children.map((node) => node.status)).toEqual(['interrupted']);
      await second.call('turn.resume', { sessionId: parent, turnId: 't1' });
      await second.waitForTurn(parent, 't1', ['completed']);
      const resumed = (await second.call('agent.tree', { sessionId: parent })).tree;
      expect(resumed.children.map((node) => node.childSessionId)).toEqual([child.childSessionId]);
      const childTurns = (await second.call('transcript.page', { sessionId: child.childSessionId, limit: 100 })).turns;
      expect(childTurns.map((turn) => turn.latestRun.attempt)).toEqual([1]);
      const result = (await second.call('transcript.page', { sessionId: parent, limit: 100 })).items
        .filter((item) => item.kind === 'tool_result')
        .at(-1);
      expect(result?.data?.output).toMatchObject({
        childSessionId: child.childSessionId,
        replayed: true,
        status: 'interrupted',
      });
    } finally {
      await second.close();
    }
  });

  it('a child’s question waits for the person; answering it lets the parent go on', async () => {
    await t.call('turn.start', { sessionId: root, turnId: 't1', text: '/spawn worker "/ask" wait' });
    const [child] = await waitForChildren(1, ['waiting']);
    const { interactions } = await t.call('interaction.list', { status: 'pending' });
    expect(interactions.map((interaction) => interaction.sessionId)).toEqual([child!.childSessionId]);
    await t.call('interaction.answer', {
      interactionId: interactions[0]!.interactionId,
      answer: { action: 'decline' },
    });
    await t.waitForTurn(root, 't1', ['completed']);
    expect((await tree()).children[0]?.status).toBe('completed');
  });
});

describe('subagent fail-stop', () => {
  it('an answer that cannot be applied stops the tree’s children exactly once and marks the tree failed', async () => {
    let settleCalls = 0;
    const failing = await startTestHost({
      dataDir: dir(),
      wrapStores: (stores: Stores): Stores => ({
        ...stores,
        interactions: {
          ...stores.interactions,
          // The first answer cannot be applied; closing the questions afterwards works.
          settle: (...args: Parameters<Stores['interactions']['settle']>) => {
            settleCalls += 1;
            if (settleCalls === 1) throw new Error('backend continuation apply failed');
            return stores.interactions.settle(...args);
          },
        },
      }),
    });
    try {
      const parent = (await failing.call('session.create', {})).session.sessionId;
      await failing.call('turn.start', { sessionId: parent, turnId: 't1', text: '/spawn-many 2 worker "/ask"' });
      const pending = await waitFor(
        async () => {
          const { interactions } = await failing.call('interaction.list', { status: 'pending' });
          return interactions.length === 2 ? interactions : null;
        },
        { message: 'both children to ask' },
      );
      const answered = await failing.invoke('interaction.answer', {
        interactionId: pending[0]!.interactionId,
        answer: { action: 'decline' },
      });
      expect(answered.ok ? null : answered.error.code).toBe('internal_failure');
      const stopped = await waitFor(
        async () => {
          const { tree: current } = await failing.call('agent.tree', { sessionId: parent });
          return current.children.every((node) => node.status === 'cancelled') ? current : null;
        },
        { message: 'the children to be stopped' },
      );
      expect(stopped.failedReason).toMatch(/backend continuation apply failed/);
      expect(stopped.children.map((node) => node.terminalReason)).toEqual(['tree_failed', 'tree_failed']);
      for (const node of stopped.children) {
        const cancels = failing.events.filter(
          (event) =>
            event.kind === 'turn.changed' &&
            event.turn.sessionId === node.childSessionId &&
            event.turn.status === 'cancelled',
        );
        expect(cancels).toHaveLength(1);
      }
      expect((await failing.call('agent.tree', { sessionId: parent })).tree.failedReason).toBe(stopped.failedReason);
      // Nothing new starts in a failed tree: a later spawn is refused in words, and no child is added.
      await failing.call('turn.start', { sessionId: parent, turnId: 't2', text: '/spawn worker "/reply hi"' });
      await failing.waitForTurn(parent, 't2', ['completed']);
      const page = await failing.call('transcript.page', { sessionId: parent, limit: 100 });
      expect(page.items.map((item) => item.text).join('')).toContain('This agent tree was stopped after a failure');
      expect((await failing.call('agent.tree', { sessionId: parent })).tree.children).toHaveLength(2);
    } finally {
      await failing.close();
    }
  });
});
