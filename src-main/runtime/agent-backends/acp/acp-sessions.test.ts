import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import type { InteractionRecord } from '../../../../src-shared/interaction-model';
import type { PermissionMode } from '../../../../src-shared/model';
import { runningTestAgents, testAgentCommand } from '../../../testing/acp-test-agent-launch';
import { startTestHost, tempDataDir, type TestHost } from '../../../testing/host-fixture';
import { waitFor } from '../../../testing/wait-for';

/** Sessions on an ACP connection, run by Cairn's own ACP test agent (a real process speaking ACP on stdio). */

let t: TestHost;
afterEach(async () => {
  await t.close();
});

async function acpSession(
  options: { permissionMode?: PermissionMode; load?: boolean; mcpHttp?: boolean; sandbox?: 'detect' } = {},
) {
  t = await startTestHost({
    acp: { bounds: { cancelMs: 1_500 } },
    ...(options.sandbox === undefined ? {} : { sandbox: options.sandbox }),
  });
  // With the sandbox, under /var/tmp: inside it /tmp is a private folder.
  const workspace = mkdtempSync(
    options.sandbox === undefined ? join(tmpdir(), 'cairn-acp-work-') : '/var/tmp/cairn-acp-work-',
  );
  const state = mkdtempSync(
    options.sandbox === undefined ? join(tmpdir(), 'cairn-acp-agent-') : '/var/tmp/cairn-acp-agent-',
  );
  // In Auto the agent runs inside the sandbox: a custom agent's own state folder is made writable as a person would, in its connection.
  const { connection } = await t.call('connection.create', {
    name: 'Test agent',
    providerType: 'acp',
    acpAgent: {
      ...testAgentCommand(state, { load: options.load ?? true, mcpHttp: options.mcpHttp ?? false }),
      ...(options.sandbox === undefined ? {} : { writableFolders: [state] }),
    },
  });
  const { session } = await t.call('session.create', {
    connectionId: connection.connectionId,
    permissionMode: options.permissionMode ?? 'ask',
    workspacePath: workspace,
  });
  return { connectionId: connection.connectionId, sessionId: session.sessionId, workspace, state };
}

const items = async (sessionId: string) => (await t.call('transcript.page', { sessionId, limit: 200 })).items;

async function turnReaches(sessionId: string, turnId: string, statuses: readonly string[]) {
  return waitFor(
    async () => {
      const outcome = await t.invoke('turn.query', { sessionId, turnId });
      return outcome.ok && statuses.includes(outcome.result.turn.status) ? outcome.result.turn : null;
    },
    { timeoutMs: 20_000, message: `turn ${turnId} to reach ${statuses.join('/')}` },
  );
}

async function pendingInteraction(sessionId: string): Promise<InteractionRecord> {
  return waitFor(async () => (await t.call('interaction.list', { sessionId, status: 'pending' })).interactions[0], {
    message: 'a pending interaction',
    timeoutMs: 20_000,
  });
}

describe('ACP sessions', { timeout: 60_000 }, () => {
  it('Test starts the agent and names it, its version and what it can do; a bad command is refused when saved', async () => {
    const { connectionId } = await acpSession();
    const tested = await t.call('connection.test', { connectionId });
    expect(tested).toMatchObject({
      verdict: 'ok',
      message: 'Cairn ACP test agent 1.0.0 speaks ACP 1: reloads sessions.',
    });
    const missing = await t.invoke('connection.create', {
      name: 'Nope',
      providerType: 'acp',
      acpAgent: { command: '/no/such/agent', args: [], env: {} },
    });
    expect(missing.ok ? 'accepted' : missing.error).toMatchObject({
      code: 'invalid_input',
      message: 'There is no executable file at /no/such/agent.',
    });
    const none = await t.invoke('connection.create', { name: 'Nope', providerType: 'acp' });
    expect(none.ok ? 'accepted' : none.error).toMatchObject({
      code: 'invalid_input',
      message: 'An ACP connection needs the agent command to run.',
    });
    const badEnv = await t.invoke('connection.create', {
      name: 'Nope',
      providerType: 'acp',
      acpAgent: { command: process.execPath, args: [], env: { '1X': 'y' } },
    });
    expect(badEnv.ok ? 'accepted' : badEnv.error).toMatchObject({ code: 'invalid_input' });
    // An agent that quits at once: Test says it exited, and how.
    const quits = await t.call('connection.create', {
      name: 'Quits',
      providerType: 'acp',
      acpAgent: { command: process.execPath, args: ['-e', 'process.exit(3)'], env: {} },
    });
    const exited = await t.call('connection.test', { connectionId: quits.connection.connectionId });
    expect(exited.verdict).toBe('server_error');
    expect(exited.message).toMatch(/exited \(exit code 3\) before it answered initialize\.$/);
  });

  it('the agent’s own name: unknown before it first starts, then as it named itself in initialize, announced, and kept after the host reopens', async () => {
    const { dir, cleanup } = tempDataDir();
    onTestFinished(cleanup);
    t = await startTestHost({ dataDir: dir });
    const state = mkdtempSync(join(tmpdir(), 'cairn-acp-agent-'));
    const { connection } = await t.call('connection.create', {
      name: 'Test agent',
      providerType: 'acp',
      acpAgent: testAgentCommand(state),
    });
    const { session } = await t.call('session.create', {
      connectionId: connection.connectionId,
      permissionMode: 'ask',
      workspacePath: mkdtempSync(join(tmpdir(), 'cairn-acp-work-')),
    });
    expect(await t.call('acp.agent', { sessionId: session.sessionId })).toEqual({ agent: null });
    await t.call('turn.start', { sessionId: session.sessionId, turnId: 't1', text: 'text Hello.' });
    expect((await turnReaches(session.sessionId, 't1', ['completed', 'failed'])).status).toBe('completed');
    const named = { name: 'cairn-acp-test-agent', title: 'Cairn ACP test agent', version: '1.0.0' };
    expect(await t.call('acp.agent', { sessionId: session.sessionId })).toEqual({ agent: named });
    expect(t.events.filter((event) => event.kind === 'acp.agent.changed')).toEqual([
      expect.objectContaining({ sessionId: session.sessionId, agent: named }),
    ]);
    await t.close();
    t = await startTestHost({ dataDir: dir });
    expect(await t.call('acp.agent', { sessionId: session.sessionId })).toEqual({ agent: named });
    expect((await t.invoke('acp.agent', { sessionId: 'no-such-session' })).ok).toBe(false);
  });

  it('a text turn: thoughts, text and a tool call with its result reach the transcript in order, and the turn completes', async () => {
    const { sessionId } = await acpSession();
    await t.call('turn.start', {
      sessionId,
      turnId: 't1',
      text: 'think Planning the heron count\ntext Herons: \ntool count-1 Count herons\ntext seven.',
    });
    expect((await turnReaches(sessionId, 't1', ['completed', 'failed'])).status).toBe('completed');
    const transcript = await items(sessionId);
    const kinds = transcript.filter((item) => item.turnId === 't1').map((item) => [item.kind, item.text]);
    expect(kinds).toEqual([
      ['user_message', expect.stringContaining('think Planning') as unknown],
      ['reasoning', 'Planning the heron count'],
      ['assistant_message', 'Herons:'],
      ['tool_call', 'acp.other'],
      ['tool_result', 'acp.other'],
      ['assistant_message', 'seven.'],
    ]);
  });

  it('plans: the first becomes one plan card, each later plan of the turn its result (the card shows the latest), kept in the record', async () => {
    const { sessionId } = await acpSession();
    await t.call('turn.start', {
      sessionId,
      turnId: 't1',
      text: 'plan in_progress Count herons; pending Write the report\ntext counting\nplan completed Count herons; in_progress Write the report',
    });
    expect((await turnReaches(sessionId, 't1', ['completed', 'failed'])).status).toBe('completed');
    const plan = (await items(sessionId)).filter((item) => item.data?.toolName === 'acp.plan');
    expect(plan.map((item) => [item.kind, item.data?.toolCallId])).toEqual([
      ['tool_call', 'acp-plan'],
      ['tool_result', 'acp-plan'],
      ['tool_result', 'acp-plan'],
    ]);
    expect(plan.at(-1)?.data?.output).toEqual({
      entries: [
        { content: 'Count herons', priority: 'medium', status: 'completed' },
        { content: 'Write the report', priority: 'medium', status: 'in_progress' },
      ],
    });
  });

  it('the token usage the agent reports with its answer is the turn’s usage; its usage_update the context meter', async () => {
    const { sessionId } = await acpSession();
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'text counted\nusage 5200 200000\ntokens 1200 340' });
    const turn = await turnReaches(sessionId, 't1', ['completed', 'failed']);
    expect(turn.status).toBe('completed');
    expect(turn.usage).toMatchObject({ inputTokens: 1200, outputTokens: 340 });
    // How full the agent's context is (usage_update) is the header's context meter.
    const { meter } = await t.call('context.meter', { sessionId });
    expect(meter).toMatchObject({
      used: 5200,
      contextWindow: 200_000,
      windowSource: 'reported',
      modelId: 'cairn-acp-test-agent',
    });
  });

  it('terminals: in Ask a command card first; allowed, it runs as a shell run shown in the transcript, and the agent reads its exit and output', async () => {
    const { sessionId, workspace } = await acpSession();
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'sh echo heron > seen.txt; echo herons; exit 3' });
    const card = await pendingInteraction(sessionId);
    expect(card.request).toMatchObject({
      kind: 'permission',
      toolName: 'run_shell',
      preview: { kind: 'command', command: "sh -c 'echo heron > seen.txt; echo herons; exit 3'", cwd: workspace },
    });
    expect(existsSync(join(workspace, 'seen.txt'))).toBe(false);
    await t.call('interaction.answer', {
      interactionId: card.interactionId,
      answer: { action: 'accept', decision: 'allow_once' },
    });
    expect((await turnReaches(sessionId, 't1', ['completed', 'failed'])).status).toBe('completed');
    expect(readFileSync(join(workspace, 'seen.txt'), 'utf8')).toBe('heron\n');
    const transcript = await items(sessionId);
    expect(transcript.at(-1)?.text).toBe('exit 3: herons\n');
    const result = transcript.find((item) => item.kind === 'tool_result' && item.data?.toolName === 'run_shell');
    expect(result?.data).toMatchObject({
      toolCallId: 'terminal-1',
      isError: true,
      output: { status: 'exited', exitCode: 3 },
    });
    const { shellRuns } = await t.call('shell.list', { sessionId, limit: 10 });
    expect(shellRuns).toMatchObject([
      { toolCallId: 'terminal-1', turnId: 't1', status: 'exited', exitCode: 3, stdoutTail: 'herons\n' },
    ]);

    const explore = await acpSessionOnSameHost('explore');
    await t.call('turn.start', { sessionId: explore.sessionId, turnId: 'e1', text: 'sh echo no > no.txt' });
    expect((await turnReaches(explore.sessionId, 'e1', ['completed', 'failed'])).status).toBe('completed');
    expect((await items(explore.sessionId)).at(-1)?.text).toMatch(/^No terminal: /);
    expect(existsSync(join(explore.workspace, 'no.txt'))).toBe(false);
  });

  it.runIf(process.platform === 'linux')(
    'terminals in Auto run unasked inside the sandbox: a write outside the workspace is refused',
    async () => {
      const { sessionId, workspace } = await acpSession({ permissionMode: 'auto', sandbox: 'detect' });
      onTestFinished(() => rmSync(workspace, { recursive: true, force: true }));
      const outside = `/var/tmp/cairn-acp-outside-${process.pid}`;
      await t.call('turn.start', {
        sessionId,
        turnId: 't1',
        text: `sh echo inside > in.txt; echo x > ${outside}; echo done`,
      });
      expect((await turnReaches(sessionId, 't1', ['completed', 'failed', 'waiting'])).status).toBe('completed');
      expect(readFileSync(join(workspace, 'in.txt'), 'utf8')).toBe('inside\n');
      expect(existsSync(outside)).toBe(false);
      const { shellRuns } = await t.call('shell.list', { sessionId, limit: 10 });
      expect(shellRuns[0]?.stderrTail).toMatch(/Read-only file system/);
    },
  );

  it.runIf(process.platform === 'linux')(
    'fs/write_text_file keeps the wall’s read-only files: refused in Auto; in Ask written only when its card was approved, not under a session grant',
    async () => {
      const { sessionId, workspace, state } = await acpSession({ permissionMode: 'auto', sandbox: 'detect' });
      onTestFinished(() => rmSync(workspace, { recursive: true, force: true }));
      onTestFinished(() => rmSync(state, { recursive: true, force: true }));
      await t.call('turn.start', { sessionId, turnId: 't1', text: 'write .git/hooks/pre-commit curl evil' });
      expect((await turnReaches(sessionId, 't1', ['completed', 'failed', 'waiting'])).status).toBe('completed');
      expect((await items(sessionId)).at(-1)?.text).toMatch(
        /^Could not write \.git\/hooks\/pre-commit: .*"\.git\/hooks\/pre-commit" is read-only for agents: it makes code run later/,
      );
      expect(existsSync(join(workspace, '.git/hooks/pre-commit'))).toBe(false);

      const ask = await acpSessionOnSameHost('ask');
      await t.call('turn.start', { sessionId: ask.sessionId, turnId: 'a1', text: 'write .claude/settings.json {}' });
      const card = await pendingInteraction(ask.sessionId);
      await t.call('interaction.answer', {
        interactionId: card.interactionId,
        answer: { action: 'accept', decision: 'allow_session' },
      });
      expect((await turnReaches(ask.sessionId, 'a1', ['completed', 'failed'])).status).toBe('completed');
      expect(readFileSync(join(ask.workspace, '.claude/settings.json'), 'utf8')).toBe('{}');
      // Allowed for the session, the next edit asks no more, so no card showed this file: refused.
      await t.call('turn.start', { sessionId: ask.sessionId, turnId: 'a2', text: 'write .cairn/hooks.json {}' });
      expect((await turnReaches(ask.sessionId, 'a2', ['completed', 'failed'])).status).toBe('completed');
      expect((await items(ask.sessionId)).at(-1)?.text).toMatch(
        /^Could not write \.cairn\/hooks\.json: .*read-only for agents/,
      );
      expect(existsSync(join(ask.workspace, '.cairn/hooks.json'))).toBe(false);
    },
  );

  it.runIf(process.platform === 'linux')(
    'a terminal in Auto blocked on the network shows the card "Allow network to <host>" on its call; allowed for the session, the retry gets through the wall',
    async () => {
      const { sessionId, workspace, state } = await acpSession({ permissionMode: 'auto', sandbox: 'detect' });
      onTestFinished(() => rmSync(workspace, { recursive: true, force: true }));
      onTestFinished(() => rmSync(state, { recursive: true, force: true }));
      // A loopback port nothing listens on (not the host's own): allowed, the proxy's connection is refused and it answers 502.
      const host = 'localhost';
      const port = await new Promise<number>((resolve) => {
        const probe = createServer().listen(0, '127.0.0.1', () => {
          const { port: free } = probe.address() as AddressInfo;
          probe.close(() => resolve(free));
        });
      });
      await t.call('turn.start', { sessionId, turnId: 't1', text: `sh curl -s -m 5 http://${host}:${port}/` });
      expect((await turnReaches(sessionId, 't1', ['completed', 'failed', 'waiting'])).status).toBe('completed');
      const card = await pendingInteraction(sessionId);
      expect(card).toMatchObject({ turnId: 't1', toolCallId: 'terminal-1', request: { kind: 'network', host } });
      const notice = (await items(sessionId)).find(
        (item) => item.kind === 'notice' && item.data?.interactionId === card.interactionId,
      );
      expect(notice).toMatchObject({
        text: `blocked by the sandbox: network to ${host}`,
        data: { toolCallId: 'terminal-1' },
      });
      await t.call('interaction.answer', {
        interactionId: card.interactionId,
        answer: { action: 'accept', network: 'allow_session' },
      });
      // Allowed: the proxy lets the host through (nothing listens there, so the answer is 502, not the wall's 403).
      await t.call('turn.start', {
        sessionId,
        turnId: 't2',
        text: `sh curl -s -m 5 -o /dev/null -w '%{http_code}' http://${host}:${port}/`,
      });
      expect((await turnReaches(sessionId, 't2', ['completed', 'failed', 'waiting'])).status).toBe('completed');
      expect((await items(sessionId)).at(-1)?.text).toMatch(/: 502$/);
      expect((await t.call('interaction.list', { sessionId, status: 'pending' })).interactions).toEqual([]);
    },
  );

  it('Stop while a terminal runs (Full mode, no card): its process group is killed and the turn ends cancelled', async () => {
    const { sessionId, workspace } = await acpSession({ permissionMode: 'full' });
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'sh echo started > started.txt; sleep 120' });
    await waitFor(() => existsSync(join(workspace, 'started.txt')), {
      message: 'the terminal to start',
      timeoutMs: 20_000,
    });
    const call = (await items(sessionId)).find(
      (item) => item.kind === 'tool_call' && item.data?.toolName === 'run_shell',
    );
    expect(call?.data).toMatchObject({
      toolCallId: 'terminal-1',
      input: { command: "sh -c 'echo started > started.txt; sleep 120'", cwd: workspace },
    });
    await t.call('turn.stop', { sessionId, turnId: 't1' });
    expect((await turnReaches(sessionId, 't1', ['cancelled', 'completed', 'failed'])).status).toBe('cancelled');
    const run = await waitFor(
      async () =>
        (await t.call('shell.list', { sessionId, limit: 10 })).shellRuns.find(
          (shellRun) => shellRun.status !== 'running' && shellRun.status !== 'starting',
        ),
      { message: 'the terminal to end', timeoutMs: 20_000 },
    );
    expect(run.status).toBe('killed');
  });

  it('a connection’s writable folders (for its agent in Auto): one that would open the deny list is refused, naming it, and nothing is saved', async () => {
    const { connectionId, state } = await acpSession();
    const before = await t.call('connection.list', {});
    const agentHome = mkdtempSync(join(tmpdir(), 'cairn-acp-home-'));
    onTestFinished(() => rmSync(agentHome, { recursive: true, force: true }));
    for (const [writableFolders, env, message] of [
      [['relative/dir'], {}, '"relative/dir" is not an absolute path'],
      [[join(homedir(), '.ssh', 'keys')], {}, 'cannot be a writable folder: it would open ~/.ssh'],
      [[agentHome], { HOME: agentHome }, `"${agentHome}" cannot be a writable folder: it would open ~/.ssh`],
      [[t.dataDir], {}, "it would open Cairn's data directory"],
    ] as const) {
      const refused = await t.invoke('connection.create', {
        name: 'Walled',
        providerType: 'acp',
        acpAgent: {
          ...testAgentCommand(state),
          env: { ...testAgentCommand(state).env, ...env },
          writableFolders: [...writableFolders],
        },
      });
      expect(refused).toMatchObject({
        ok: false,
        error: { code: 'invalid_input', message: expect.stringContaining(message) as unknown },
      });
    }
    expect((await t.call('connection.list', {})).connections).toEqual(before.connections);
    const current = before.connections.find((connection) => connection.connectionId === connectionId)!;
    const updated = await t.invoke('connection.update', {
      connectionId,
      expectedRevision: current.revision,
      acpAgent: { ...testAgentCommand(state), writableFolders: [homedir()] },
    });
    expect(updated).toMatchObject({ ok: false, error: { message: expect.stringContaining('it would open ~/.') } });
    expect((await t.call('connection.list', {})).connections).toEqual(before.connections);
    const { connection } = await t.call('connection.update', {
      connectionId,
      expectedRevision: current.revision,
      acpAgent: { ...testAgentCommand(state), writableFolders: [`${state}/`] },
    });
    expect(connection.acpAgent?.writableFolders).toEqual([state]);
  });

  it('a permission request becomes an approval card; allowed, the agent writes the file through Cairn’s confined fs', async () => {
    const { sessionId, workspace } = await acpSession();
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'write notes/heron.txt seven herons' });
    const card = await pendingInteraction(sessionId);
    expect(card.request).toMatchObject({
      kind: 'permission',
      toolName: 'acp.edit',
      summary: 'Write notes/heron.txt',
      preview: { kind: 'diff', diff: expect.stringContaining('+seven herons') as unknown },
    });
    expect(existsSync(join(workspace, 'notes/heron.txt'))).toBe(false);
    await t.call('interaction.answer', {
      interactionId: card.interactionId,
      answer: { action: 'accept', decision: 'allow_once' },
    });
    expect((await turnReaches(sessionId, 't1', ['completed', 'failed'])).status).toBe('completed');
    expect(readFileSync(join(workspace, 'notes/heron.txt'), 'utf8')).toBe('seven herons');
    expect((await items(sessionId)).at(-1)?.text).toBe('Wrote notes/heron.txt (once).');
  });

  it('rejected with a reason: nothing is written and the agent hears why; outside the workspace and in Explore mode writes are refused', async () => {
    const { sessionId, workspace } = await acpSession();
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'write heron.txt seven' });
    const card = await pendingInteraction(sessionId);
    await t.call('interaction.answer', {
      interactionId: card.interactionId,
      answer: { action: 'deny', reason: 'Not herons today' },
    });
    expect((await turnReaches(sessionId, 't1', ['completed', 'failed'])).status).toBe('completed');
    expect(existsSync(join(workspace, 'heron.txt'))).toBe(false);
    expect((await items(sessionId)).at(-1)?.text).toBe('Rejected writing heron.txt: Not herons today');

    await t.call('turn.start', { sessionId, turnId: 't2', text: 'write ../escaped.txt out' });
    const second = await pendingInteraction(sessionId);
    await t.call('interaction.answer', {
      interactionId: second.interactionId,
      answer: { action: 'accept', decision: 'allow_once' },
    });
    expect((await turnReaches(sessionId, 't2', ['completed', 'failed'])).status).toBe('completed');
    expect((await items(sessionId)).at(-1)?.text).toMatch(/^Could not write \.\.\/escaped\.txt: /);
    expect(existsSync(join(workspace, '..', 'escaped.txt'))).toBe(false);

    const explore = await acpSessionOnSameHost('explore');
    writeFileSync(join(explore.workspace, 'kept.txt'), 'kept');
    await t.call('turn.start', {
      sessionId: explore.sessionId,
      turnId: 'e1',
      text: 'read kept.txt\nwrite kept.txt changed',
    });
    expect((await turnReaches(explore.sessionId, 'e1', ['completed', 'failed'])).status).toBe('completed');
    const said = (await items(explore.sessionId))
      .filter((item) => item.kind === 'assistant_message')
      .map((item) => item.text);
    expect(said).toEqual([
      'kept.txt holds: kept',
      'Rejected writing kept.txt: This Cairn session is in Explore mode: nothing may be changed.',
    ]);
    expect(readFileSync(join(explore.workspace, 'kept.txt'), 'utf8')).toBe('kept');
  });

  it('Stop mid-stream: session/cancel, the turn ends cancelled within the bound, and the agent keeps the session for the next turn', async () => {
    const { sessionId, state } = await acpSession();
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'slow 400 50' });
    await waitFor(async () => (await items(sessionId)).some((item) => item.text.includes('chunk-2')), {
      message: 'the first chunks',
      timeoutMs: 20_000,
    });
    const started = Date.now();
    await t.call('turn.stop', { sessionId, turnId: 't1' });
    expect((await turnReaches(sessionId, 't1', ['cancelled', 'completed', 'failed'])).status).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(5_000);
    const agents = runningTestAgents(state);
    expect(agents).toHaveLength(1);
    await t.call('turn.start', { sessionId, turnId: 't2', text: 'text still here' });
    expect((await turnReaches(sessionId, 't2', ['completed', 'failed'])).status).toBe('completed');
    expect(runningTestAgents(state)).toEqual(agents);
  });

  it('an agent deaf to session/cancel: Stop kills its process group after the bound', async () => {
    const { sessionId, state } = await acpSession();
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'text going quiet\ndeaf' });
    await waitFor(async () => (await items(sessionId)).some((item) => item.text === 'going quiet'), {
      message: 'the text',
      timeoutMs: 20_000,
    });
    expect(runningTestAgents(state)).toHaveLength(1);
    await t.call('turn.stop', { sessionId, turnId: 't1' });
    expect((await turnReaches(sessionId, 't1', ['cancelled', 'completed', 'failed'])).status).toBe('cancelled');
    await waitFor(() => runningTestAgents(state).length === 0, {
      message: 'the deaf agent to be killed',
      timeoutMs: 10_000,
    });
  });

  it('the agent crashes mid-turn: the run fails saying so; refusal is its own end', async () => {
    const { sessionId } = await acpSession();
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'text about to fall\ncrash' });
    const crashed = await turnReaches(sessionId, 't1', ['completed', 'failed']);
    expect(crashed.latestRun).toMatchObject({ status: 'failed', terminalReason: 'agent_process_exited' });
    await t.call('turn.start', { sessionId, turnId: 't2', text: 'refuse' });
    expect((await turnReaches(sessionId, 't2', ['completed', 'failed'])).latestRun).toMatchObject({
      status: 'failed',
      terminalReason: 'agent_refused',
    });
  });

  it('the session’s MCP servers are passed to the agent in session/new: stdio with its environment (secrets too), HTTP to an agent that takes it; a server off for the session is not', async () => {
    t = await startTestHost({ acp: { bounds: { cancelMs: 1_500 } } });
    const stdio = {
      name: 'herons',
      transport: 'stdio' as const,
      command: process.execPath,
      args: ['-e', '0'],
      env: [{ name: 'HERON_TOKEN', secret: true, value: 'sekrit' }],
    };
    await t.call('mcp.server.create', stdio);
    await t.call('mcp.server.create', {
      name: 'weirs',
      transport: 'http',
      url: 'http://127.0.0.1:9/mcp',
      headers: [{ name: 'X-Weir', secret: false, value: 'low' }],
    });
    const off = await t.call('mcp.server.create', {
      name: 'switched-off',
      transport: 'http',
      url: 'http://127.0.0.1:9/off',
    });
    const runWith = async (mcpHttp: boolean) => {
      const workspace = mkdtempSync(join(tmpdir(), 'cairn-acp-work-'));
      const state = mkdtempSync(join(tmpdir(), 'cairn-acp-agent-'));
      const { connection } = await t.call('connection.create', {
        name: `Agent ${String(mcpHttp)}`,
        providerType: 'acp',
        acpAgent: testAgentCommand(state, { mcpHttp }),
      });
      const { session } = await t.call('session.create', {
        connectionId: connection.connectionId,
        permissionMode: 'ask',
        workspacePath: workspace,
      });
      await t.call('mcp.session.setServer', { sessionId: session.sessionId, serverId: off.server.serverId, on: false });
      await t.call('turn.start', { sessionId: session.sessionId, turnId: 't1', text: 'text hello' });
      await waitFor(
        async () => {
          const outcome = await t.invoke('turn.query', { sessionId: session.sessionId, turnId: 't1' });
          return outcome.ok && outcome.result.turn.status === 'completed';
        },
        { timeoutMs: 20_000, message: 'the turn' },
      );
      return readFileSync(join(state, 'mcp.jsonl'), 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as unknown);
    };
    const stdioServer = {
      name: 'herons',
      command: process.execPath,
      args: ['-e', '0'],
      env: [{ name: 'HERON_TOKEN', value: 'sekrit' }],
    };
    expect(await runWith(true)).toEqual([
      {
        method: 'session/new',
        servers: [
          stdioServer,
          { type: 'http', name: 'weirs', url: 'http://127.0.0.1:9/mcp', headers: [{ name: 'X-Weir', value: 'low' }] },
        ],
      },
    ]);
    expect(await runWith(false)).toEqual([{ method: 'session/new', servers: [stdioServer] }]);
  });

  async function acpSessionOnSameHost(permissionMode: PermissionMode) {
    const workspace = mkdtempSync(join(tmpdir(), 'cairn-acp-work-'));
    const state = mkdtempSync(join(tmpdir(), 'cairn-acp-agent-'));
    const { connection } = await t.call('connection.create', {
      name: 'Test agent 2',
      providerType: 'acp',
      acpAgent: testAgentCommand(state),
    });
    const { session } = await t.call('session.create', {
      connectionId: connection.connectionId,
      permissionMode,
      workspacePath: workspace,
    });
    return { sessionId: session.sessionId, workspace };
  }

  it('neither the agent nor its terminal commands get Cairn’s variables; the agent gets its connection’s key, its commands no secret-looking one', async () => {
    const added = { CAIRN_TOKEN: 'host-token-value-123', CAIRN_DATA_DIR: '/somewhere', OPENAI_API_KEY: 'sk-person' };
    Object.assign(process.env, added);
    onTestFinished(() => {
      for (const name of Object.keys(added)) delete process.env[name];
    });
    t = await startTestHost();
    const workspace = mkdtempSync(join(tmpdir(), 'cairn-acp-work-'));
    const state = mkdtempSync(join(tmpdir(), 'cairn-acp-agent-'));
    const launch = testAgentCommand(state);
    const { connection } = await t.call('connection.create', {
      name: 'Test agent',
      providerType: 'acp',
      acpAgent: { ...launch, env: { ...launch.env, AGENT_API_KEY: 'sk-agent' } },
    });
    const { session } = await t.call('session.create', {
      connectionId: connection.connectionId,
      permissionMode: 'full',
      workspacePath: workspace,
    });
    await t.call('turn.start', { sessionId: session.sessionId, turnId: 't1', text: 'sh env > terminal.env' });
    expect((await turnReaches(session.sessionId, 't1', ['completed', 'failed'])).status).toBe('completed');
    const terminalEnv = readFileSync(join(workspace, 'terminal.env'), 'utf8');
    expect(terminalEnv).toContain('PATH=');
    expect(terminalEnv).not.toMatch(/^(CAIRN_\w*|OPENAI_API_KEY|AGENT_API_KEY)=/m);
    const [agentPid] = runningTestAgents(state);
    const agentEnv = readFileSync(`/proc/${agentPid}/environ`, 'utf8').split('\0');
    expect(agentEnv).toContain('AGENT_API_KEY=sk-agent');
    expect(agentEnv.filter((entry) => entry.startsWith('CAIRN_') || entry.includes('host-token-value-123'))).toEqual(
      [],
    );
  });
});
