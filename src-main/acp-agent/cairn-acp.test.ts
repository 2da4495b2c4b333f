import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { agentText, startAcpEditor, type AcpEditor, CAIRN_BIN } from '../testing/acp-editor-client';
import { tempDataDir } from '../testing/host-fixture';
import { runServeToExit, SERVE_PROCESS_TESTS } from '../testing/serve-process';
import { serveWithClient } from '../testing/serve-with-client';
import { waitFor } from '../testing/wait-for';
import { realAgentsInstalled, TEST_AGENTS } from '../testing/real-acp-agents';

/**
 * `cairn acp` (docs/acp.md, "Cairn as an ACP agent") driven by the ACP SDK's client, as an editor
 * drives it, against a real headless host on a temporary data directory with the Offline demo agent.
 */

const TOKEN = 'cairn-acp-test-token';

// `cairn acp` runs the built code, building it first when the sources are newer: done once here, so
// no test's budget pays for a build.
beforeAll(() => {
  const built = spawnSync(process.execPath, [CAIRN_BIN, 'acp', '--help'], { stdio: 'ignore' });
  expect(built.status).toBe(0);
}, 300_000);
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function folders() {
  const { dir, cleanup } = tempDataDir();
  cleanups.push(cleanup);
  const dataDir = join(dir, 'data');
  const project = join(dir, 'project');
  mkdirSync(dataDir);
  mkdirSync(project);
  return { dataDir, project, dir };
}

function editor(options: { dataDir: string; cwd: string }): AcpEditor {
  const started = startAcpEditor(options);
  cleanups.push(async () => {
    started.connection.close();
    if (started.child.exitCode === null && started.child.signalCode === null) started.child.kill('SIGKILL');
    await started.exited;
  });
  return started;
}

async function initialize(acp: AcpEditor) {
  return acp.connection.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
}

/** The pid of the host `cairn acp` started (it says so on stderr), ended after the test. */
function trackStartedHost(acp: AcpEditor) {
  const pid = Number(/Started the Cairn host \(process (\d+)\)/.exec(acp.stderr())?.[1]);
  expect(pid).toBeGreaterThan(0);
  cleanups.push(async () => {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      return;
    }
    await waitFor(() => !alive(pid), { message: 'the started host to stop', timeoutMs: 30_000 });
  });
  return pid;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('cairn acp with a host already running', SERVE_PROCESS_TESTS, () => {
  it('streams a prompt, asks an approval in the editor and runs the command once allowed, and the session is a Cairn session of that host', async () => {
    const { dataDir, project } = folders();
    const { client } = await serveWithClient(dataDir, TOKEN, cleanups);
    const acp = editor({ dataDir, cwd: project });

    const init = await initialize(acp);
    expect(init.agentCapabilities?.loadSession).toBe(true);
    expect(init.agentCapabilities?.sessionCapabilities?.list).toEqual({});
    const { sessionId, modes } = await acp.connection.agent.request('session/new', { cwd: project, mcpServers: [] });
    expect(modes?.currentModeId).toBe('ask'); // the sandbox is off in tests: Cairn's default is Ask

    // The session is the running host's, with the editor's folder as its workspace.
    const listed = await client.call('session.list', {});
    expect(listed.sessions.map((session) => [session.sessionId, session.workspacePath])).toEqual([
      [sessionId, project],
    ]);

    const streamed = await acp.connection.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: '/stream 3 20' }],
    });
    expect(streamed.stopReason).toBe('end_turn');
    expect(agentText(acp.updates)).toBe('chunk 1/3 chunk 2/3 chunk 3/3.');
    // The session's title (the one Cairn gives it) names the editor's thread.
    expect(acp.updates.map(({ update }) => update)).toContainEqual({
      sessionUpdate: 'session_info_update',
      title: 'Offline demo: stream',
    });
    expect(acp.updates.filter(({ update }) => update.sessionUpdate === 'agent_message_chunk').length).toBeGreaterThan(
      1,
    );

    // An approval in Ask mode: asked of the editor, allowed there, and the command runs in the project.
    const asked: string[] = [];
    acp.answerPermissions((request) => {
      asked.push(request.toolCall.title ?? '');
      expect(request.options.map((option) => option.kind)).toEqual(['allow_once', 'allow_always', 'reject_once']);
      return { outcome: { outcome: 'selected', optionId: 'allow_once' } };
    });
    acp.updates.length = 0;
    const ran = await acp.connection.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: '/tool run_shell {"command":"echo from-editor > made.txt"}' }],
    });
    expect(ran.stopReason).toBe('end_turn');
    expect(asked).toEqual(['Run echo from-editor > made.txt']);
    expect(readFileSync(join(project, 'made.txt'), 'utf8')).toBe('from-editor\n');
    const kinds = acp.updates.map(({ update }) => update.sessionUpdate);
    expect(kinds).toContain('tool_call');
    expect(acp.updates.map(({ update }) => update)).toContainEqual(
      expect.objectContaining({ sessionUpdate: 'tool_call_update', status: 'completed' }),
    );
    const approval = (await client.call('interaction.list', { sessionId })).interactions[0];
    expect(approval?.answer).toEqual({ action: 'accept', decision: 'allow_once' });
    expect(acp.strayOutput()).toBe('');
  });

  it('withdraws the editor’s question when Cairn’s window answers first, and Stop from the editor cancels the turn', async () => {
    const { dataDir, project } = folders();
    const { client } = await serveWithClient(dataDir, TOKEN, cleanups);
    const acp = editor({ dataDir, cwd: project });
    await initialize(acp);
    const { sessionId } = await acp.connection.agent.request('session/new', { cwd: project, mcpServers: [] });

    let withdrawn = false;
    let askedFor: string | null = null;
    acp.answerPermissions(
      (request, signal) =>
        new Promise((resolveAnswer) => {
          askedFor = request.toolCall.toolCallId;
          signal.addEventListener('abort', () => {
            withdrawn = true;
            resolveAnswer({ outcome: { outcome: 'cancelled' } });
          });
        }),
    );
    const denied = acp.connection.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: '/tool run_shell {"command":"echo no > refused.txt"}' }],
    });
    await waitFor(() => askedFor, { message: 'the editor to be asked' });
    const pending = await waitFor(
      async () =>
        (await client.call('interaction.list', { sessionId })).interactions.find((i) => i.status === 'pending'),
      { message: 'the approval card in Cairn' },
    );
    await client.call('interaction.answer', {
      interactionId: pending.interactionId,
      answer: { action: 'accept', decision: 'deny' },
    });
    expect((await denied).stopReason).toBe('end_turn');
    await waitFor(() => withdrawn, { message: 'the editor’s question to be withdrawn' });
    expect(existsSync(join(project, 'refused.txt'))).toBe(false);

    // Stop from the editor is Cairn's Stop: the held turn ends cancelled.
    const held = acp.connection.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: '/hold' }],
    });
    await waitFor(async () => (await client.call('session.get', { sessionId })).activeTurn?.status === 'running', {
      message: 'the held turn to run',
    });
    await acp.connection.agent.notify('session/cancel', { sessionId });
    expect((await held).stopReason).toBe('cancelled');
    const snapshot = await client.call('session.get', { sessionId });
    expect(snapshot.activeTurn).toBeNull();
  });

  it('loads a session after the editor was killed: the same history, from Cairn’s record; session/list names it', async () => {
    const { dataDir, project } = folders();
    await serveWithClient(dataDir, TOKEN, cleanups);
    const first = editor({ dataDir, cwd: project });
    await initialize(first);
    const { sessionId } = await first.connection.agent.request('session/new', { cwd: project, mcpServers: [] });
    await first.connection.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'remember the lighthouse' }],
    });
    const said = agentText(first.updates);
    expect(said).toContain('lighthouse');
    first.child.kill('SIGKILL');
    await first.exited;

    const second = editor({ dataDir, cwd: project });
    await initialize(second);
    const listed = await second.connection.agent.request('session/list', { cwd: project });
    expect(listed.sessions.map((session) => [session.sessionId, session.cwd, session.title])).toEqual([
      [sessionId, project, 'remember the lighthouse'],
    ]);
    await second.connection.agent.request('session/load', { sessionId, cwd: project, mcpServers: [] });
    expect(agentText(second.updates, 'user_message_chunk')).toBe('remember the lighthouse');
    expect(agentText(second.updates)).toBe(said);
    expect(second.updates.every((notification) => notification.sessionId === sessionId)).toBe(true);
  });
  it('streams a turn started in Cairn’s window to the editors that have the session open (new or loaded), and an editor’s own prompt to the other editor, each once', async () => {
    const { dataDir, project } = folders();
    const { client } = await serveWithClient(dataDir, TOKEN, cleanups);
    writeFileSync(join(project, 'notes.txt'), 'the lighthouse keeper\n');
    const first = editor({ dataDir, cwd: project });
    await initialize(first);
    const { sessionId } = await first.connection.agent.request('session/new', { cwd: project, mcpServers: [] });
    const turnEnded = (turnId: string) =>
      waitFor(
        async () => {
          const page = await client.call('transcript.page', { sessionId, limit: 50 });
          const turn = page.turns.find((candidate) => candidate.turnId === turnId);
          return turn !== undefined && turn.status === 'completed';
        },
        { message: `turn ${turnId} to end` },
      );

    // A turn started in Cairn's window: the person's message, then the tool and the reply.
    await client.call('turn.start', {
      sessionId,
      turnId: 'window-1',
      text: '/tool read_file {"path":"notes.txt"}',
    });
    await turnEnded('window-1');
    await waitFor(() => first.updates.some(({ update }) => update.sessionUpdate === 'tool_call_update'), {
      message: 'the tool’s result in the editor',
    });
    const kinds = first.updates.map(({ update }) => update.sessionUpdate);
    expect(kinds[0]).toBe('user_message_chunk');
    expect(agentText(first.updates, 'user_message_chunk')).toBe('/tool read_file {"path":"notes.txt"}');
    expect(kinds.indexOf('tool_call')).toBeGreaterThan(0);
    expect(first.updates.map(({ update }) => update)).toContainEqual(
      expect.objectContaining({
        sessionUpdate: 'tool_call_update',
        status: 'completed',
        content: [
          { type: 'content', content: { type: 'text', text: expect.stringContaining('the lighthouse keeper') } },
        ],
      }),
    );
    expect(first.updates.every((notification) => notification.sessionId === sessionId)).toBe(true);

    // A second editor loads the session; the first editor's own prompt reaches it (the person's
    // message included), and reaches the first editor once, without its own message echoed.
    const second = editor({ dataDir, cwd: project });
    await initialize(second);
    await second.connection.agent.request('session/load', { sessionId, cwd: project, mcpServers: [] });
    first.updates.length = 0;
    second.updates.length = 0;
    await first.connection.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: '/stream 3 20' }],
    });
    expect(agentText(first.updates)).toBe('chunk 1/3 chunk 2/3 chunk 3/3.');
    expect(agentText(first.updates, 'user_message_chunk')).toBe('');
    await waitFor(() => agentText(second.updates) === 'chunk 1/3 chunk 2/3 chunk 3/3.', {
      message: 'the first editor’s turn in the second editor',
    });
    expect(agentText(second.updates, 'user_message_chunk')).toBe('/stream 3 20');

    // Another turn from Cairn's window reaches both, once each.
    first.updates.length = 0;
    second.updates.length = 0;
    await client.call('turn.start', { sessionId, turnId: 'window-2', text: 'hello from the window' });
    await turnEnded('window-2');
    for (const acp of [first, second]) {
      await waitFor(() => agentText(acp.updates).includes('hello from the window'), {
        message: 'the window’s reply in the editor',
      });
      expect(agentText(acp.updates, 'user_message_chunk')).toBe('hello from the window');
      expect(agentText(acp.updates).split('hello from the window').length).toBe(2);
    }
  });
  it('an editor that loads a session while a turn streams in Cairn gets the whole turn once: the replay, then the rest as it comes', async () => {
    const { dataDir, project } = folders();
    const { client } = await serveWithClient(dataDir, TOKEN, cleanups);
    const { session } = await client.call('session.create', { workspacePath: project });
    const { sessionId } = session;
    const acp = editor({ dataDir, cwd: project });
    await initialize(acp);
    await client.call('turn.start', { sessionId, turnId: 'window-1', text: '/stream 30 200' });
    await waitFor(
      async () =>
        (await client.call('transcript.page', { sessionId, limit: 50 })).items.some((item) =>
          item.text.includes('chunk 2/30'),
        ),
      { message: 'the turn to be streaming' },
    );
    await acp.connection.agent.request('session/load', { sessionId, cwd: project, mcpServers: [] });
    const whole = Array.from({ length: 30 }, (_, index) => `chunk ${index + 1}/30`).join(' ') + '.';
    await waitFor(() => agentText(acp.updates).length >= whole.length, { message: 'the whole reply in the editor' });
    await waitFor(async () => (await client.call('session.get', { sessionId })).activeTurn === null, {
      message: 'the turn to end',
    });
    expect(agentText(acp.updates)).toBe(whole);
    expect(agentText(acp.updates, 'user_message_chunk')).toBe('/stream 30 200');
  });
});

describe('cairn acp with no host running', SERVE_PROCESS_TESTS, () => {
  it('starts a headless host for the data directory, works from any folder, and a later npm start uses that host', async () => {
    const { dataDir, project, dir } = folders();
    const elsewhere = join(dir, 'elsewhere');
    mkdirSync(elsewhere);
    const acp = editor({ dataDir, cwd: elsewhere });
    await initialize(acp);
    trackStartedHost(acp);
    const { sessionId } = await acp.connection.agent.request('session/new', { cwd: project, mcpServers: [] });
    const answer = await acp.connection.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'hello' }],
    });
    expect(answer.stopReason).toBe('end_turn');
    const socket = statSync(join(dataDir, 'host.sock'));
    expect(socket.isSocket()).toBe(true);
    expect(socket.mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dataDir, 'host.log'), 'utf8')).toContain('Cairn host ready');

    // `npm start` (the headless host) on the same directory points to the running one and exits 0.
    const second = await runServeToExit({ dataDir, token: null });
    expect(second.code).toBe(0);
    expect(second.output).toMatch(/Cairn is already running for .*; its page: http:\/\/127\.0\.0\.1:\d+\/#token=\S+/);
    expect(acp.strayOutput()).toBe('');
  });

  it('exits within seconds when the editor closes stdin', async () => {
    const { dataDir, project } = folders();
    const acp = editor({ dataDir, cwd: project });
    await initialize(acp);
    trackStartedHost(acp);
    const closedAt = Date.now();
    acp.child.stdin.end();
    expect(await acp.exited).toBe(0);
    expect(Date.now() - closedAt).toBeLessThan(5000);
  });
});

// acpx comes with the real agents (test-agents/): it needs packages the root lock cannot name on every platform.
describe.runIf(realAgentsInstalled())('cairn acp driven by a third-party client (acpx)', SERVE_PROCESS_TESTS, () => {
  it('answers one prompt', async () => {
    const { dataDir, project, dir } = folders();
    await serveWithClient(dataDir, TOKEN, cleanups);
    const acpx = join(TEST_AGENTS, 'acpx', 'dist', 'cli.js');
    const home = join(dir, 'home');
    mkdirSync(home);
    const child = spawn(
      process.execPath,
      [
        acpx,
        '--agent',
        `${process.execPath} ${CAIRN_BIN} acp --data-dir ${dataDir}`,
        '--cwd',
        project,
        '--approve-all',
        '--format',
        'quiet',
        'exec',
        'hello from acpx',
      ],
      { cwd: project, env: { ...process.env, HOME: home, CAIRN_SANDBOX: 'off' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise((resolveExit) => child.once('exit', resolveExit));
    expect(output).toContain('You said: “hello from acpx”.');
    expect(code).toBe(0);
  });
});
