import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import type { PermissionMode } from '../../../../src-shared/model';
import { testAgentCommand } from '../../../testing/acp-test-agent-launch';
import { startTestHost, tempDataDir, type TestHost } from '../../../testing/host-fixture';
import { waitFor } from '../../../testing/wait-for';

/** What an ACP agent offers in its session (commands, modes, config options), and its title, with Cairn's ACP test agent. */

let t: TestHost;
afterEach(async () => {
  await t.close();
});

async function offeringSession(
  dataDir: string,
  permissionMode: PermissionMode = 'ask',
  offers: true | 'as-options' = true,
) {
  t = await startTestHost({ dataDir });
  const state = mkdtempSync(join(tmpdir(), 'cairn-acp-agent-'));
  const { connection } = await t.call('connection.create', {
    name: 'Test agent',
    providerType: 'acp',
    acpAgent: testAgentCommand(state, { offers }),
  });
  const { session } = await t.call('session.create', {
    connectionId: connection.connectionId,
    permissionMode,
    workspacePath: mkdtempSync(join(tmpdir(), 'cairn-acp-work-')),
  });
  return { sessionId: session.sessionId, state };
}

async function turn(sessionId: string, turnId: string, text: string): Promise<string> {
  await t.call('turn.start', { sessionId, turnId, text });
  const done = await waitFor(
    async () => {
      const outcome = await t.invoke('turn.query', { sessionId, turnId });
      return outcome.ok && ['completed', 'failed'].includes(outcome.result.turn.status) ? outcome.result.turn : null;
    },
    { timeoutMs: 30_000, message: `turn ${turnId} to end` },
  );
  expect(done.status).toBe('completed');
  const { items } = await t.call('transcript.page', { sessionId, limit: 200 });
  return items
    .filter((item) => item.turnId === turnId && item.kind === 'assistant_message')
    .map((item) => item.text)
    .join('');
}

describe('what an ACP agent offers', { timeout: 90_000 }, () => {
  it('its commands: kept with the session (after a restart too), announced, replaced when it sends new ones; `/name input` reaches it as written', async () => {
    const { dir, cleanup } = tempDataDir();
    onTestFinished(cleanup);
    const { sessionId } = await offeringSession(dir);
    expect((await t.call('acp.offers', { sessionId })).offers.commands).toEqual([]);
    expect(await turn(sessionId, 't1', '/review the tests')).toBe('/review the tests');
    const review = { name: 'review', description: 'Review the changes', hint: 'what to focus on' };
    const compact = { name: 'compact', description: 'Compact the conversation', hint: null };
    await waitFor(async () => (await t.call('acp.offers', { sessionId })).offers.commands.length === 2 || null, {
      message: 'the agent’s commands kept',
    });
    expect((await t.call('acp.offers', { sessionId })).offers.commands).toEqual([review, compact]);
    expect(
      t.events.some(
        (event) =>
          event.kind === 'acp.offers.changed' && event.sessionId === sessionId && event.offers.commands.length === 2,
      ),
    ).toBe(true);
    await turn(sessionId, 't2', 'commands init:folder');
    expect((await t.call('acp.offers', { sessionId })).offers.commands).toEqual([
      { name: 'init', description: 'The init command', hint: 'folder' },
    ]);
    await t.close();
    t = await startTestHost({ dataDir: dir });
    expect((await t.call('acp.offers', { sessionId })).offers.commands).toEqual([
      { name: 'init', description: 'The init command', hint: 'folder' },
    ]);
    expect((await t.invoke('acp.offers', { sessionId: 'no-such-session' })).ok).toBe(false);
  });

  it('its title names the session, unless the person named it', async () => {
    const { dir, cleanup } = tempDataDir();
    onTestFinished(cleanup);
    const { sessionId } = await offeringSession(dir);
    await turn(sessionId, 't1', 'title Fixing the parser');
    expect((await t.call('session.get', { sessionId })).session).toMatchObject({
      title: 'Fixing the parser',
      titleSource: 'auto',
    });
    await t.call('session.rename', { sessionId, title: 'My own name' });
    await turn(sessionId, 't2', 'title Something else');
    expect((await t.call('session.get', { sessionId })).session.title).toBe('My own name');
  });

  it('its modes and options: shown as they stand, chosen, kept, applied at once and again after a restart; a mode that acts unasked only in Full', async () => {
    const { dir, cleanup } = tempDataDir();
    onTestFinished(cleanup);
    const { sessionId, state } = await offeringSession(dir);
    // The agent starts in acceptEdits; in Ask, Cairn puts it in default, where it asks before each change.
    expect(await turn(sessionId, 't1', 'settings')).toBe('mode=default model=sonnet effort=medium');
    const { offers } = await t.call('acp.offers', { sessionId });
    expect(offers.selectors.map((selector) => [selector.id, selector.kind, selector.current])).toEqual([
      ['mode', 'mode', 'default'],
      ['model', 'option', 'sonnet'],
      ['effort', 'option', 'medium'],
    ]);
    const refused = await t.invoke('acp.choose', { sessionId, selectorId: 'mode', value: 'bypassPermissions' });
    expect(refused.ok ? 'chosen' : refused.error).toEqual({
      code: 'invalid_input',
      message: '“Bypass permissions” lets the agent act without Cairn’s approval: it can be chosen only in Full mode.',
    });
    expect((await t.invoke('acp.choose', { sessionId, selectorId: 'effort', value: 'extreme' })).ok).toBe(false);
    const chosen = await t.call('acp.choose', { sessionId, selectorId: 'effort', value: 'high' });
    expect(chosen.offers.chosen).toEqual({ effort: 'high' });
    expect(chosen.offers.selectors.find((selector) => selector.id === 'effort')?.current).toBe('high');
    await t.call('acp.choose', { sessionId, selectorId: 'mode', value: 'plan' });
    expect(await turn(sessionId, 't2', 'settings')).toBe('mode=plan model=sonnet effort=high');
    // In Full, the agent's own bypass mode may be chosen; back in Ask, the agent leaves it at once.
    await t.call('session.configure', { sessionId, permissionMode: 'full' });
    await t.call('acp.choose', { sessionId, selectorId: 'mode', value: 'bypassPermissions' });
    expect(await turn(sessionId, 't3', 'settings')).toBe('mode=bypassPermissions model=sonnet effort=high');
    await t.call('session.configure', { sessionId, permissionMode: 'ask' });
    await waitFor(
      async () =>
        (await t.call('acp.offers', { sessionId })).offers.selectors.find((selector) => selector.id === 'mode')
          ?.current === 'default' || null,
      { message: 'the agent’s mode to follow Ask' },
    );
    const sets = readFileSync(join(state, 'settings.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as unknown);
    expect(sets.at(-1)).toEqual({ method: 'session/set_mode', modeId: 'default' });
    // After a restart the agent starts afresh (acceptEdits, medium): the kept choices are set again.
    await t.close();
    t = await startTestHost({ dataDir: dir });
    expect((await t.call('acp.offers', { sessionId })).offers.chosen).toEqual({
      effort: 'high',
      mode: 'bypassPermissions',
    });
    expect(await turn(sessionId, 't4', 'settings')).toBe('mode=default model=sonnet effort=high');
  });

  it('the cost it reports (cumulative, in usage_update) is recorded per turn under the agent’s name, beside other models', async () => {
    const { dir, cleanup } = tempDataDir();
    onTestFinished(cleanup);
    const { sessionId } = await offeringSession(dir);
    await turn(sessionId, 't1', 'cost 0.25 1000 200000');
    await turn(sessionId, 't2', 'cost 0.5 1500 200000\ncost 0.75 2000 200000');
    await turn(sessionId, 't3', 'text No cost this time.');
    const { totals, groups } = await t.call('usage.summary', { by: 'model', sessionId });
    expect(totals).toMatchObject({ calls: 2, costUsd: 0.75 });
    expect(groups).toEqual([
      expect.objectContaining({ label: expect.stringContaining('cairn-acp-test-agent') as unknown, costUsd: 0.75 }),
    ]);
  });

  it('a branch (Edit) on an agent without session/fork starts a new agent session, told so (not offered by this agent), and given Cairn’s summary of the conversation before it', async () => {
    const { dir, cleanup } = tempDataDir();
    onTestFinished(cleanup);
    const { sessionId } = await offeringSession(dir);
    await turn(sessionId, 't1', 'text The heron count is seven.');
    await turn(sessionId, 't2', 'text The second turn.');
    const { items } = await t.call('transcript.page', { sessionId, limit: 200 });
    const second = items.find((item) => item.turnId === 't2' && item.kind === 'user_message');
    if (second === undefined) throw new Error('no second message');
    const branched = await t.call('session.branch', {
      sessionId,
      atItemId: second.itemId,
      mode: 'edit',
      text: 'recall',
      requestId: 'branch-1',
    });
    const turnId = branched.turn?.turnId ?? '';
    const branch = branched.session.sessionId;
    await waitFor(
      async () => {
        const outcome = await t.invoke('turn.query', { sessionId: branch, turnId });
        return outcome.ok && ['completed', 'failed'].includes(outcome.result.turn.status) ? true : null;
      },
      { timeoutMs: 30_000, message: 'the branch’s turn' },
    );
    const branchItems = (await t.call('transcript.page', { sessionId: branch, limit: 200 })).items.filter(
      (item) => item.turnId === turnId,
    );
    expect(branchItems.find((item) => item.kind === 'reasoning')?.text).toMatch(
      /^Cairn: this branch was not forked from the agent’s session: .+ does not offer session\/fork \(not offered by this agent\)\. So a new agent session started, given a summary/,
    );
    // The test agent says back what it was sent: Cairn's summary of the turn before the branch point only.
    const said = branchItems.find((item) => item.kind === 'assistant_message')?.text ?? '';
    expect(said).toMatch(/^\(Cairn: this conversation began before this agent session\./);
    expect(said).toContain('Person: text The heron count is seven.');
    expect(said).not.toContain('The second turn');
  });

  it('an agent whose mode is only a config option: the same rules, through session/set_config_option', async () => {
    const { dir, cleanup } = tempDataDir();
    onTestFinished(cleanup);
    const { sessionId } = await offeringSession(dir, 'full', 'as-options');
    // As with session modes, Cairn puts it in the mode where it asks (and answers for it in Full).
    expect(await turn(sessionId, 't1', 'settings')).toBe('mode=default model=sonnet effort=medium');
    await t.call('acp.choose', { sessionId, selectorId: 'mode', value: 'bypassPermissions' });
    expect(await turn(sessionId, 't2', 'settings')).toBe('mode=bypassPermissions model=sonnet effort=medium');
    await t.call('session.configure', { sessionId, permissionMode: 'ask' });
    await waitFor(
      async () =>
        (await t.call('acp.offers', { sessionId })).offers.selectors.find((selector) => selector.id === 'mode')
          ?.current === 'default' || null,
      { message: 'the agent’s mode option to follow Ask' },
    );
    expect(await turn(sessionId, 't3', 'settings')).toBe('mode=default model=sonnet effort=medium');
  });

  it('an agent that does not declare session/list: its sessions are not offered for import; a folder that is not there is refused', async () => {
    const { dir, cleanup } = tempDataDir();
    onTestFinished(cleanup);
    const { sessionId } = await offeringSession(dir);
    const session = (await t.call('session.get', { sessionId })).session;
    const cwd = session.workspacePath ?? '';
    const listing = await t.call('acp.sessions', { connectionId: session.connectionId, cwd });
    expect(listing).toMatchObject({ offered: false, sessions: [], nextCursor: null });
    expect(listing.agent).not.toBe('');
    const missing = await t.invoke('acp.sessions', { connectionId: session.connectionId, cwd: join(cwd, 'gone') });
    expect(missing).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    const builtIn = await t.invoke('acp.sessions', { connectionId: 'offline-demo', cwd });
    expect(builtIn).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });
});
