import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PermissionMode } from '../../src-shared/model';
import type { Stores } from '../storage/stores';
import { startTestHost, useTempDirs, type TestHost } from '../testing/host-fixture';
import { waitFor } from '../testing/wait-for';
import { tempWorkspace } from '../testing/workspace-fixture';

/** Subagent trees with the scripted agent: spawn ids, Stop through every level, permissions and approvals of children. */
let t: TestHost;
beforeEach(async () => {
  t = await startTestHost();
});
afterEach(async () => {
  await t.close();
});

const newSession = async (input: { permissionMode?: PermissionMode; workspacePath?: string } = {}) =>
  (await t.call('session.create', input)).session.sessionId;
const tree = async (sessionId: string) => (await t.call('agent.tree', { sessionId })).tree;
const items = async (sessionId: string) => (await t.call('transcript.page', { sessionId, limit: 200 })).items;
const toolResults = async (sessionId: string, toolName: string) =>
  (await items(sessionId))
    .filter((item) => item.kind === 'tool_result' && item.data?.toolName === toolName)
    .map((item) => item.data);
const spawnWith = (input: Record<string, unknown>) => `/tool spawn_agent ${JSON.stringify(input)}`;

describe('spawn ids', () => {
  it('a spawn id the model chooses is scoped to its parent: two parents using the same one each get a child; reused, it returns the first', async () => {
    const [first, second] = [await newSession(), await newSession()];
    await t.call('turn.start', {
      sessionId: first,
      turnId: 't1',
      text: spawnWith({ agent: 'worker', task: '/reply one', spawnId: 'helper' }),
    });
    await t.call('turn.start', {
      sessionId: second,
      turnId: 't1',
      text: spawnWith({ agent: 'worker', task: '/reply two', spawnId: 'helper' }),
    });
    await t.waitForTurn(first, 't1', ['completed']);
    await t.waitForTurn(second, 't1', ['completed']);
    const [firstResult] = await toolResults(first, 'spawn_agent');
    const [secondResult] = await toolResults(second, 'spawn_agent');
    expect(secondResult).toMatchObject({ isError: false });
    const [firstChild] = (await tree(first)).children;
    const [secondChild] = (await tree(second)).children;
    expect(firstResult?.output).toMatchObject({ childSessionId: firstChild!.childSessionId });
    expect(secondResult?.output).toMatchObject({ childSessionId: secondChild!.childSessionId });
    expect(firstChild!.childSessionId).not.toBe(secondChild!.childSessionId);

    // The same spawn id again, in a later turn: the same child, not a second one.
    await t.call('turn.start', {
      sessionId: first,
      turnId: 't2',
      text: spawnWith({ agent: 'worker', task: '/reply one again', spawnId: 'helper' }),
    });
    await t.waitForTurn(first, 't2', ['completed']);
    expect((await toolResults(first, 'spawn_agent'))[1]?.output).toMatchObject({
      childSessionId: firstChild!.childSessionId,
      replayed: true,
    });
    expect((await tree(first)).children).toHaveLength(1);
  });

  it('a spawn whose child the person deleted is not started again when replayed: refused with the reason, no new child', async () => {
    const parent = await newSession();
    await t.call('turn.start', {
      sessionId: parent,
      turnId: 't1',
      text: spawnWith({ agent: 'worker', task: '/reply one', spawnId: 'helper' }),
    });
    await t.waitForTurn(parent, 't1', ['completed']);
    const [child] = (await tree(parent)).children;
    await t.call('session.remove', { sessionId: child!.childSessionId });
    const sessionsBefore = (await t.call('session.list', {})).sessions.length;

    await t.call('turn.start', {
      sessionId: parent,
      turnId: 't2',
      text: spawnWith({ agent: 'worker', task: '/reply one again', spawnId: 'helper' }),
    });
    await t.waitForTurn(parent, 't2', ['completed', 'failed']);
    const replayed = (await toolResults(parent, 'spawn_agent'))[1];
    expect(replayed).toMatchObject({ isError: true });
    expect(JSON.stringify(replayed?.output)).toMatch(/deleted the child agent this spawn started/);
    expect((await tree(parent)).children).toEqual([]);
    expect((await t.call('session.list', {})).sessions).toHaveLength(sessionsBefore);

    // Another spawn id still starts a child.
    await t.call('turn.start', {
      sessionId: parent,
      turnId: 't3',
      text: spawnWith({ agent: 'worker', task: '/reply two', spawnId: 'helper-2' }),
    });
    await t.waitForTurn(parent, 't3', ['completed']);
    expect((await tree(parent)).children).toHaveLength(1);
  });
});

describe('Stop through the tree', () => {
  it('turn.stop on the root stops every descendant, at every level, within the bound; each records parent_stopped', async () => {
    const root = await newSession();
    await t.call('turn.start', {
      sessionId: root,
      turnId: 't1',
      text: `/spawn-many 2 worker ${JSON.stringify('/spawn worker "/hold" wait')} wait`,
    });
    await waitFor(
      async () => {
        const { children } = await tree(root);
        return children.length === 4 && children.every((child) => child.status === 'running') ? true : null;
      },
      { message: 'two children and two grandchildren running', timeoutMs: 10_000 },
    );
    const startedAt = performance.now();
    const stopped = await t.call('turn.stop', { sessionId: root, source: 'stop_button' });
    // Committed by the time the stop answers, although every /hold ignores its abort for a while.
    const { children } = await tree(root);
    const elapsed = performance.now() - startedAt;
    expect(stopped.turn).toMatchObject({ status: 'cancelled', latestRun: { terminalReason: 'stop_button' } });
    expect(children.map((child) => [child.depth, child.status, child.terminalReason]).sort()).toEqual([
      [1, 'cancelled', 'parent_stopped'],
      [1, 'cancelled', 'parent_stopped'],
      [2, 'cancelled', 'parent_stopped'],
      [2, 'cancelled', 'parent_stopped'],
    ]);
    expect(elapsed).toBeLessThan(500);
    expect(t.events.filter((event) => event.kind === 'turn.changed' && event.turn.status === 'cancelled')).toHaveLength(
      5,
    );
  });

  it('a child stopped alone is reported to its parent as the tool result, and the parent goes on', async () => {
    const root = await newSession();
    await t.call('turn.start', { sessionId: root, turnId: 't1', text: '/spawn worker "/hold" wait' });
    const child = await waitFor(
      async () => (await tree(root)).children.find((node) => node.status === 'running') ?? null,
      { message: 'the child to run' },
    );
    await t.call('turn.stop', { sessionId: child.childSessionId, source: 'stop_button' });
    await t.waitForTurn(root, 't1', ['completed']);
    const [result] = await toolResults(root, 'spawn_agent');
    expect(result?.output).toMatchObject({
      childSessionId: child.childSessionId,
      status: 'cancelled',
      terminalReason: 'stop_button',
    });
    expect((await items(root)).map((item) => item.text).join('')).toContain('The worker agent cancelled');
  });
});

describe('a child’s permissions', () => {
  it.each([
    ['explore', 'worker', 'explore'],
    ['ask', 'worker', 'ask'],
    ['ask', 'explore', 'explore'],
    ['full', 'worker', 'full'],
    ['full', 'explore', 'explore'],
  ] as const)('a %s parent’s %s child runs in %s mode, never wider', async (parentMode, agent, childMode) => {
    const root = await newSession({ permissionMode: parentMode });
    await t.call('turn.start', { sessionId: root, turnId: 't1', text: `/spawn ${agent} "/reply done" wait` });
    await t.waitForTurn(root, 't1', ['completed']);
    const [child] = (await tree(root)).children;
    expect((await t.call('session.get', { sessionId: child!.childSessionId })).session.permissionMode).toBe(childMode);
  });

  it('narrowing a parent’s mode narrows its descendants; a child cannot be made wider than its parent', async () => {
    const root = await newSession({ permissionMode: 'full' });
    await t.call('turn.start', {
      sessionId: root,
      turnId: 't1',
      text: `/spawn worker ${JSON.stringify('/spawn worker "/reply deep" wait')} wait`,
    });
    await t.waitForTurn(root, 't1', ['completed']);
    const [child, grandchild] = (await tree(root)).children;
    const modeOf = async (sessionId: string) => (await t.call('session.get', { sessionId })).session.permissionMode;
    expect([await modeOf(child!.childSessionId), await modeOf(grandchild!.childSessionId)]).toEqual(['full', 'full']);

    await t.call('session.configure', { sessionId: root, permissionMode: 'ask' });
    expect([await modeOf(child!.childSessionId), await modeOf(grandchild!.childSessionId)]).toEqual(['ask', 'ask']);
    await t.call('session.configure', { sessionId: child!.childSessionId, permissionMode: 'explore' });
    expect([await modeOf(root), await modeOf(child!.childSessionId), await modeOf(grandchild!.childSessionId)]).toEqual(
      ['ask', 'explore', 'explore'],
    );

    const widened = await t.invoke('session.configure', {
      sessionId: grandchild!.childSessionId,
      permissionMode: 'full',
    });
    expect(widened.ok ? null : widened.error).toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('cannot be wider than its parent’s (explore)'),
    });
    expect(await modeOf(grandchild!.childSessionId)).toBe('explore');
    // Widening the parent leaves its children as they are: each is widened on its own, up to its parent's.
    await t.call('session.configure', { sessionId: root, permissionMode: 'full' });
    expect(await modeOf(child!.childSessionId)).toBe('explore');
    await t.call('session.configure', { sessionId: child!.childSessionId, permissionMode: 'full' });
    expect(await modeOf(child!.childSessionId)).toBe('full');
  });

  it('a custom agent gets only the tools its definition names (and the agent tools)', async () => {
    const workspace = tempWorkspace();
    try {
      workspace.write('notes.md', 'the notes\n');
      mkdirSync(join(workspace.root, '.agents', 'agents'), { recursive: true });
      writeFileSync(
        join(workspace.root, '.agents', 'agents', 'reader.md'),
        '---\nname: Reader\ndescription: Reads files\ntools: [read_file]\n---\nRead what you are asked to.\n',
      );
      const root = await newSession({ permissionMode: 'full', workspacePath: workspace.root });
      await t.call('turn.start', {
        sessionId: root,
        turnId: 't1',
        text: `/spawn-many 2 reader ${JSON.stringify('/tool read_file {"path":"notes.md"}')} wait`,
      });
      await t.waitForTurn(root, 't1', ['completed']);
      await t.call('turn.start', {
        sessionId: root,
        turnId: 't2',
        text: `/spawn reader ${JSON.stringify('/tool write_file {"path":"x.md","content":"no"}')} wait`,
      });
      await t.waitForTurn(root, 't2', ['completed']);
      const [reader, , writer] = (await tree(root)).children;
      expect(JSON.stringify((await toolResults(reader!.childSessionId, 'read_file'))[0]?.output)).toContain(
        'the notes',
      );
      const [refused] = await toolResults(writer!.childSessionId, 'write_file');
      expect(refused).toMatchObject({ isError: true });
      expect(JSON.stringify(refused?.output)).toMatch(
        /no tool named \\"write_file\\".*Available: read_file, spawn_agent/,
      );
      expect(existsSync(join(workspace.root, 'x.md'))).toBe(false);
    } finally {
      workspace.cleanup();
    }
  });

  it('a child’s approval waits for the person; allowing it lets the child write and the parent go on', async () => {
    const workspace = tempWorkspace();
    try {
      const root = await newSession({ permissionMode: 'ask', workspacePath: workspace.root });
      await t.call('turn.start', {
        sessionId: root,
        turnId: 't1',
        text: `/spawn worker ${JSON.stringify('/tool write_file {"path":"a.txt","content":"from the child"}')} wait`,
      });
      const [approval] = await waitFor(
        async () => {
          const { interactions } = await t.call('interaction.list', { status: 'pending' });
          return interactions.length > 0 ? interactions : null;
        },
        { message: 'the child’s approval' },
      );
      const [child] = (await tree(root)).children;
      expect(approval).toMatchObject({
        sessionId: child!.childSessionId,
        request: { kind: 'permission', toolName: 'write_file' },
      });
      expect(child!.status).toBe('waiting');
      await t.call('interaction.answer', {
        interactionId: approval!.interactionId,
        answer: { action: 'accept', decision: 'allow_once' },
      });
      await t.waitForTurn(root, 't1', ['completed']);
      expect(readFileSync(join(workspace.root, 'a.txt'), 'utf8')).toBe('from the child');
      expect((await tree(root)).children[0]?.status).toBe('completed');
    } finally {
      workspace.cleanup();
    }
  });
});

describe('a child made but never started', () => {
  const dir = useTempDirs();

  it('after the host died between making a child and starting its task: wait_agents says so at once, resume_agent starts it', async () => {
    const dataDir = dir();
    let died = false;
    // The "crash": the write that starts the child's task turn never happens.
    const dieAtChildTask = (stores: Stores): Stores => ({
      ...stores,
      turns: {
        ...stores.turns,
        insertTurn(...args: Parameters<Stores['turns']['insertTurn']>) {
          if (!died && args[0].turnId.startsWith('task-')) {
            died = true;
            throw new Error('simulated crash');
          }
          return stores.turns.insertTurn(...args);
        },
      },
    });
    const first = await startTestHost({ dataDir, wrapStores: dieAtChildTask });
    const root = (await first.call('session.create', {})).session.sessionId;
    await first.call('turn.start', {
      sessionId: root,
      turnId: 't1',
      text: '/spawn worker "/reply finished after all"',
    });
    await waitFor(() => died, { message: 'the simulated crash' });
    await first.waitForTurn(root, 't1', ['completed']);
    const [child] = (await first.call('agent.tree', { sessionId: root })).tree.children;
    expect(child?.status).toBeNull();
    await first.host.close();

    const second = await startTestHost({ dataDir });
    try {
      const childId = child!.childSessionId;
      await second.call('turn.start', {
        sessionId: root,
        turnId: 't2',
        text: `/tool wait_agents ${JSON.stringify({ ids: [childId] })}`,
      });
      await second.waitForTurn(root, 't2', ['completed']);
      const waited = (await second.call('transcript.page', { sessionId: root, limit: 100 })).items
        .filter((item) => item.kind === 'tool_result')
        .at(-1);
      expect(waited?.data?.output).toEqual({
        children: [{ childSessionId: childId, status: 'not_started', terminalReason: null, report: null }],
      });

      await second.call('turn.start', {
        sessionId: root,
        turnId: 't3',
        text: `/tool resume_agent ${JSON.stringify({ id: childId })}`,
      });
      await second.waitForTurn(root, 't3', ['completed']);
      const resumed = (await second.call('transcript.page', { sessionId: root, limit: 100 })).items
        .filter((item) => item.kind === 'tool_result')
        .at(-1);
      expect(resumed?.data).toMatchObject({ isError: false, output: { childSessionId: childId } });
      await second.waitForTurn(childId, child!.initialTurnId, ['completed']);
      const childText = (await second.call('transcript.page', { sessionId: childId, limit: 100 })).items
        .map((item) => item.text)
        .join('');
      expect(childText).toContain('finished after all');
    } finally {
      await second.close();
    }
  });
});
