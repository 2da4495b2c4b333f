import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../../../testing/host-fixture';
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InteractionRecord } from '../../../../src-shared/interaction-model';
import {
  hangReply,
  lastUserText,
  responsesErrors,
  startOpenAIResponsesServer,
  streamReply,
  textReply,
  toolCallReply,
  type ProviderTestServer,
} from '../../../testing/provider-servers';
import { processGone } from '../../shell/process-group';
import { findCodexBinary } from './codex-binary';
import { CODEX_MODELS } from './codex-connection';
import { waitFor } from '../../../testing/wait-for';
import { appServerPids } from '../../../testing/codex-processes';

/** Sessions on a Codex connection, run by the real `codex app-server` against a scripted Responses server. */

let server: ProviderTestServer;
let t: TestHost;

beforeAll(async () => {
  server = await startOpenAIResponsesServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  server.discardQueued();
  await t.close();
});

async function codexSession(permissionMode: 'explore' | 'ask' | 'full' = 'ask') {
  t = await startTestHost({ codex: { retries: 0, bounds: { interruptMs: 1000 } } });
  const workspace = mkdtempSync(join(tmpdir(), 'cairn-codex-work-'));
  const { connection } = await t.call('connection.create', {
    name: 'Codex',
    providerType: 'codex',
    baseUrl: server.baseUrl,
  });
  const { session } = await t.call('session.create', {
    connectionId: connection.connectionId,
    permissionMode,
    workspacePath: workspace,
  });
  return { connectionId: connection.connectionId, sessionId: session.sessionId, workspace };
}

const escalated = (command: string) => ({
  cmd: command,
  sandbox_permissions: 'require_escalated',
  justification: 'Needs to write outside the sandbox',
});

async function pendingInteraction(sessionId: string): Promise<InteractionRecord> {
  return waitFor(async () => (await t.call('interaction.list', { sessionId, status: 'pending' })).interactions[0], {
    message: 'a pending interaction',
    timeoutMs: 20_000,
  });
}

/** Codex turns on a loaded machine take seconds; wait up to 20 s for a status. */
async function turnReaches(sessionId: string, turnId: string, statuses: readonly string[]) {
  return waitFor(
    async () => {
      const outcome = await t.invoke('turn.query', { sessionId, turnId });
      return outcome.ok && statuses.includes(outcome.result.turn.status) ? outcome.result.turn : null;
    },
    { timeoutMs: 20_000, message: `turn ${turnId} to reach ${statuses.join('/')}` },
  );
}

const items = async (sessionId: string) => (await t.call('transcript.page', { sessionId, limit: 200 })).items;

describe('Codex sessions', { timeout: 60_000 }, () => {
  it('tests the connection: the version of the codex it found', async () => {
    const { connectionId } = await codexSession();
    const result = await t.call('connection.test', { connectionId });
    expect(result.verdict).toBe('ok');
    expect(result.message).toMatch(/Codex \d+\.\d+\.\d+/);
  });

  it('a codex binary set on the connection: checked when given, named by Test with its version, and the one turns run', async () => {
    const { connectionId, sessionId } = await codexSession();
    const bundled = findCodexBinary(null);
    if (bundled === null) throw new Error('the bundled codex binary is missing');
    const folder = mkdtempSync(join(tmpdir(), 'cairn-codex-bin-'));
    const own = join(folder, 'codex');
    symlinkSync(bundled.path, own);
    const notExecutable = join(folder, 'notes.txt');
    writeFileSync(notExecutable, 'not a program');
    const refusals = [
      [join(folder, 'missing'), 'There is no file at'],
      [folder, 'is a folder'],
      [notExecutable, 'is not executable'],
      ['codex', 'full path'],
    ] as const;
    for (const [path, words] of refusals) {
      const outcome = await t.invoke('connection.update', { connectionId, expectedRevision: 1, codexBinary: path });
      expect(outcome.ok ? 'accepted' : outcome.error).toMatchObject({
        code: 'invalid_input',
        message: expect.stringContaining(words) as unknown,
      });
    }
    const other = await t.invoke('connection.create', { name: 'Not Codex', providerType: 'ollama', codexBinary: own });
    expect(other.ok ? 'accepted' : other.error).toMatchObject({
      code: 'invalid_input',
      message: 'Only a Codex connection runs a codex binary.',
    });

    const { connection } = await t.call('connection.update', { connectionId, expectedRevision: 1, codexBinary: own });
    expect(connection.codexBinary).toBe(own);
    const tested = await t.call('connection.test', { connectionId });
    expect(tested.verdict).toBe('ok');
    expect(tested.message).toMatch(new RegExp(`^Codex \\d+\\.\\d+\\.\\d+ \\(set on this connection: ${own}\\)`));
    server.enqueue(hangReply(['Running on my own codex']));
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Which codex?' });
    await waitFor(async () => (await items(sessionId)).some((item) => item.text.includes('Running on my own codex')), {
      message: 'the first text',
      timeoutMs: 20_000,
    });
    const pid = appServerPid(t.dataDir);
    expect(readFileSync(`/proc/${pid ?? 0}/cmdline`, 'utf8').split('\0')[0]).toBe(own);
    await t.call('turn.stop', { sessionId, turnId: 't1' });

    const cleared = await t.call('connection.update', { connectionId, expectedRevision: 2, codexBinary: null });
    expect(cleared.connection.codexBinary).toBeNull();
    expect((await t.call('connection.test', { connectionId })).message).toContain('bundled with Cairn');
  });

  it("lists the connection's models from Codex's model/list, cached while the connection's binary, base URL and key stay; a Codex that does not answer falls back to Cairn's list, saying so", async () => {
    const { connectionId } = await codexSession();
    const bundled = findCodexBinary(null);
    if (bundled === null) throw new Error('the bundled codex binary is missing');
    const folder = mkdtempSync(join(tmpdir(), 'cairn-codex-bin-'));
    const log = join(folder, 'runs.log');
    const wrapper = join(folder, 'codex');
    writeFileSync(wrapper, `#!/bin/sh\necho "$1" >> '${log}'\nexec '${bundled.path}' "$@"\n`, { mode: 0o755 });
    await t.call('connection.update', { connectionId, expectedRevision: 1, codexBinary: wrapper });
    const appServerRuns = () =>
      readFileSync(log, 'utf8')
        .split('\n')
        .filter((line) => line === 'app-server').length;

    const listed = await t.call('connection.models.fetch', { connectionId });
    expect(listed.notice).toBeNull();
    // Codex's own names ("GPT-5.5"), where Cairn's list would only have the ids.
    expect(listed.connection.models).toContainEqual(expect.objectContaining({ modelId: 'gpt-5.5', label: 'GPT-5.5' }));
    expect(appServerRuns()).toBe(1);
    await waitFor(() => appServerPids(t.dataDir).length === 0, {
      message: 'the model-list app-server to end',
      timeoutMs: 5_000,
    });
    const { connection } = await t.call('connection.models.fetch', { connectionId });
    expect(connection.models).toEqual(listed.connection.models);
    expect(appServerRuns()).toBe(1); // cached
    await t.call('connection.update', {
      connectionId,
      expectedRevision: connection.revision,
      baseUrl: `${server.baseUrl}/`,
    });
    await t.call('connection.models.fetch', { connectionId });
    expect(appServerRuns()).toBe(2); // what model/list depends on changed

    const broken = join(folder, 'broken-codex');
    writeFileSync(broken, '#!/bin/sh\necho "this is not codex" >&2\nexit 3\n', { mode: 0o755 });
    const { connection: other } = await t.call('connection.create', {
      name: 'Broken Codex',
      providerType: 'codex',
      baseUrl: server.baseUrl,
      codexBinary: broken,
    });
    const fallback = await t.call('connection.models.fetch', { connectionId: other.connectionId });
    expect(fallback.notice).toMatch(
      /^Codex did not list its models \(.+\), so these are the models Cairn knows codex 0\.171 ships\.$/,
    );
    expect(fallback.connection.models.map((model) => model.modelId)).toEqual(
      CODEX_MODELS.map((model) => model.modelId),
    );
  });

  it('streams a text turn through Codex, durable, with reasoning and with usage in usage.summary', async () => {
    const { sessionId } = await codexSession();
    const base = server.modelCalls().length;
    server.enqueue(
      streamReply({
        reasoning: ['Thinking ', 'it over.'],
        text: ['Hello ', 'from the ', 'fake model.'],
        usage: { inputTokens: 120, outputTokens: 30 },
      }),
    );
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Say hello' });
    const turn = await turnReaches(sessionId, 't1', ['completed', 'failed']);
    expect(turn.status).toBe('completed');
    expect(lastUserText((await server.waitForModelCall(base)).body)).toContain('Say hello');
    expect((await items(sessionId)).map((item) => [item.kind, item.text])).toEqual([
      ['user_message', 'Say hello'],
      ['reasoning', 'Thinking it over.'],
      ['assistant_message', 'Hello from the fake model.'],
    ]);
    // Streamed: the message appeared while it was still being written.
    expect(
      t.events.some(
        (event) =>
          event.kind === 'transcript.appended' &&
          event.item.kind === 'assistant_message' &&
          event.item.state === 'streaming',
      ),
    ).toBe(true);
    const summary = await t.call('usage.summary', { by: 'session' });
    expect(summary.totals).toMatchObject({ inputTokens: 120, outputTokens: 30 });
    // The header's context meter: the latest request and answer of the window Codex reports for its model.
    const { meter } = await t.call('context.meter', { sessionId });
    expect(meter).toMatchObject({ used: 150, windowSource: 'reported', modelId: 'gpt-5.5', outputReserve: 0 });
    expect(meter?.contextWindow).toBeGreaterThan(100_000);
    expect(
      t.events.some(
        (event) => event.kind === 'context.changed' && event.sessionId === sessionId && event.meter.used === 150,
      ),
    ).toBe(true);
  });

  it('Stop during a slow stream: cancelled, nothing appended after; the next turn works on the same thread', async () => {
    const { sessionId } = await codexSession();
    const base = server.modelCalls().length;
    server.enqueue(hangReply(['Working on it']));
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Take your time' });
    await waitFor(async () => (await items(sessionId)).some((item) => item.text.includes('Working on it')), {
      message: 'first text',
      timeoutMs: 20_000,
    });
    const started = Date.now();
    await t.call('turn.stop', { sessionId, turnId: 't1' });
    expect((await t.call('turn.query', { sessionId, turnId: 't1' })).turn.status).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(1000);
    const request = await server.waitForModelCall(base);
    expect(await request.outcome).toBe('client_closed');
    await waitFor(
      async () => (await t.call('codex.turnResults', { sessionId, turnId: 't1' })).results[0]?.status === 'interrupted',
      {
        message: 'the interrupted result',
        timeoutMs: 10_000,
      },
    );
    expect((await t.call('codex.forceStop', { sessionId })).stopped).toBe(true); // nothing quarantined
    const after = (await items(sessionId)).length;
    server.enqueue(textReply('Second answer.'));
    await t.call('turn.start', { sessionId, turnId: 't2', text: 'Again' });
    expect((await turnReaches(sessionId, 't2', ['completed', 'failed'])).status).toBe('completed');
    const all = await items(sessionId);
    expect(all.slice(after).map((item) => item.text)).toEqual(['Again', 'Second answer.']);
    const second = (await server.waitForModelCall(base + 1)).body;
    expect(JSON.stringify(second)).toContain('Take your time');
  });

  it('a command approval becomes a Cairn approval with the exact command; allowed, it runs and shows its output and exit code', async () => {
    const { sessionId, workspace } = await codexSession('ask');
    const base = server.modelCalls().length;
    server.enqueue(
      toolCallReply({
        id: 'call_1',
        name: 'exec_command',
        input: escalated('echo approved > note.txt && echo wrote it'),
      }),
      textReply('The note is written.'),
    );
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Write a note' });
    const interaction = await pendingInteraction(sessionId);
    expect(interaction.request).toMatchObject({
      kind: 'permission',
      toolName: 'run_shell',
      preview: { kind: 'command' },
    });
    expect(JSON.stringify(interaction.request)).toContain('echo approved > note.txt');
    await t.call('interaction.answer', {
      interactionId: interaction.interactionId,
      answer: { action: 'accept', decision: 'allow_once' },
    });
    expect((await turnReaches(sessionId, 't1', ['completed', 'failed'])).status).toBe('completed');
    expect(readFileSync(join(workspace, 'note.txt'), 'utf8').trim()).toBe('approved');
    const all = await items(sessionId);
    const calls = all.filter((item) => item.kind === 'tool_call');
    expect(calls).toHaveLength(1);
    const result = all.find((item) => item.kind === 'tool_result');
    expect(result?.data).toMatchObject({
      toolName: 'run_shell',
      isError: false,
      output: { exitCode: 0, status: 'completed' },
    });
    expect(JSON.stringify(result?.data)).toContain('wrote it');
    expect(all.at(-1)?.text).toBe('The note is written.');
    expect(server.toolResultsIn(base + 1)[0]?.content).toContain('wrote it');
    const { results } = await t.call('codex.turnResults', { sessionId, turnId: 't1' });
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({
      status: 'completed',
      finalMessage: 'The note is written.',
      commands: [{ exitCode: 0, status: 'completed' }],
    });
    expect(results[0]?.commands[0]?.command).toContain('echo approved > note.txt');
  });

  it("a command's output streams live into its shell run before it completes, then the run ends with its exit code", async () => {
    const { sessionId, workspace } = await codexSession('full');
    // The command prints until the test creates `go`, then prints once more and exits. (It repeats the
    // first line because Codex holds output written before it attaches to the process until more comes.)
    const command = 'while [ ! -f go ]; do echo first-line; sleep 0.2; done; echo second-line';
    server.enqueue(
      toolCallReply({ id: 'call_live', name: 'exec_command', input: { cmd: command, yield_time_ms: 30_000 } }),
      textReply('Both lines printed.'),
    );
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Print two lines' });
    const live = await waitFor(
      () =>
        t.events.find(
          (event) =>
            event.kind === 'shell.output' && event.sessionId === sessionId && event.text.includes('first-line'),
        ),
      {
        message: 'the first line, live',
        timeoutMs: 20_000,
      },
    );
    if (live.kind !== 'shell.output') throw new Error('not an output event');
    // Still running: the transcript shows the call and its live run, and no result yet.
    const running = (await t.call('shell.get', { shellRunId: live.shellRunId })).shellRun;
    expect(running).toMatchObject({ status: 'running', sessionId, turnId: 't1', pid: null });
    expect(running.command).toContain('echo first-line');
    const during = await items(sessionId);
    expect(during.find((item) => item.kind === 'tool_call')?.data).toMatchObject({
      toolCallId: running.toolCallId,
      toolName: 'run_shell',
    });
    expect(during.some((item) => item.kind === 'tool_result')).toBe(false);
    writeFileSync(join(workspace, 'go'), '');
    expect((await turnReaches(sessionId, 't1', ['completed', 'failed'])).status).toBe('completed');
    const ended = (await t.call('shell.get', { shellRunId: live.shellRunId })).shellRun;
    expect(ended).toMatchObject({ status: 'exited', exitCode: 0 });
    expect(ended.stdoutTail).toMatch(/first-line\s+second-line/);
    expect((await t.call('shell.list', { sessionId, limit: 10 })).shellRuns).toHaveLength(1);
    expect(t.events.some((event) => event.kind === 'shell.output' && event.text.includes('second-line'))).toBe(true);
  });

  it('a declined command does not run; the reason stays with the decision, reaches Codex, and the turn completes', async () => {
    const { sessionId, workspace } = await codexSession('ask');
    const base = server.modelCalls().length;
    server.enqueue(
      toolCallReply({ id: 'call_1', name: 'exec_command', input: escalated('echo nope > denied.txt') }),
      textReply('Understood, I will not.'),
    );
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Write a file' });
    const interaction = await pendingInteraction(sessionId);
    await t.call('interaction.answer', {
      interactionId: interaction.interactionId,
      answer: { action: 'accept', decision: 'deny', reason: 'Not in this folder' },
    });
    expect((await turnReaches(sessionId, 't1', ['completed', 'failed'])).status).toBe('completed');
    expect(() => readFileSync(join(workspace, 'denied.txt'))).toThrow();
    const all = await items(sessionId);
    expect(all.filter((item) => item.kind === 'tool_result')).toHaveLength(1);
    expect(all.find((item) => item.kind === 'tool_result')?.data).toMatchObject({
      isError: true,
      output: { action: 'deny', reason: 'Not in this folder' },
    });
    expect(all.at(-1)?.text).toBe('Understood, I will not.');
    // Codex's decline says only "rejected by user": the reason goes in as input of the turn, and the model reads it.
    expect(JSON.stringify((await server.waitForModelCall(base + 1)).body)).toContain(
      'The person declined your command and said why: Not in this folder',
    );
  });

  it('Stop while Codex waits for an approval closes it and ends that app-server; the next turn resumes the same thread', async () => {
    const { sessionId } = await codexSession('ask');
    const base = server.modelCalls().length;
    server.enqueue(toolCallReply({ id: 'call_1', name: 'exec_command', input: escalated('echo never > never.txt') }));
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Remember the osprey' });
    const interaction = await pendingInteraction(sessionId);
    const waitingPid = appServerPid(t.dataDir);
    await t.call('turn.stop', { sessionId, turnId: 't1' });
    expect((await t.call('turn.query', { sessionId, turnId: 't1' })).turn.status).toBe('cancelled');
    expect((await t.call('interaction.get', { interactionId: interaction.interactionId })).interaction.status).toBe(
      'closed',
    );
    expect(waitingPid).not.toBeNull();
    await waitFor(() => processGone(waitingPid ?? 0), {
      message: 'the waiting app-server ended by Stop',
      timeoutMs: 10_000,
    });
    server.enqueue(textReply('Osprey noted.'));
    await t.call('turn.start', { sessionId, turnId: 't2', text: 'Which bird?' });
    expect((await turnReaches(sessionId, 't2', ['completed', 'failed'])).status).toBe('completed');
    expect(JSON.stringify((await server.waitForModelCall(base + 1)).body)).toContain('Remember the osprey');
  });

  it('apply_patch asks with the diff; allowed, the file changes on disk', async () => {
    const { sessionId, workspace } = await codexSession('ask');
    writeFileSync(join(workspace, 'hello.txt'), 'old line\n');
    const patch = '*** Begin Patch\n*** Update File: hello.txt\n@@\n-old line\n+new line\n*** End Patch\n';
    server.enqueue(toolCallReply({ id: 'call_p', name: 'apply_patch', input: patch }), textReply('Patched.'));
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Change the line' });
    const interaction = await pendingInteraction(sessionId);
    expect(interaction.request).toMatchObject({
      kind: 'permission',
      toolName: 'apply_patch',
      preview: { kind: 'diff' },
    });
    expect(JSON.stringify(interaction.request)).toContain('+new line');
    await t.call('interaction.answer', {
      interactionId: interaction.interactionId,
      answer: { action: 'accept', decision: 'allow_once' },
    });
    expect((await turnReaches(sessionId, 't1', ['completed', 'failed'])).status).toBe('completed');
    expect(readFileSync(join(workspace, 'hello.txt'), 'utf8')).toBe('new line\n');
    const { results } = await t.call('codex.turnResults', { sessionId, turnId: 't1' });
    expect(results[0]).toMatchObject({ status: 'completed', finalMessage: 'Patched.', commands: [] });
    expect(results[0]?.filesChanged).toEqual([join(workspace, 'hello.txt')]);
  });

  it('requestUserInput becomes a question form; the answer goes back to Codex', async () => {
    const { sessionId } = await codexSession('ask');
    const base = server.modelCalls().length;
    const question = {
      id: 'color',
      header: 'Colour',
      question: 'Which colour?',
      options: [
        { label: 'Red', description: 'warm' },
        { label: 'Blue', description: 'cool' },
      ],
    };
    server.enqueue(
      toolCallReply({ id: 'call_q', name: 'request_user_input', input: { questions: [question] } }),
      textReply('Red it is.'),
    );
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Ask me' });
    const interaction = await pendingInteraction(sessionId);
    expect(interaction.request).toMatchObject({
      kind: 'question',
      questions: [{ id: 'color', prompt: 'Which colour?' }],
    });
    await t.call('interaction.answer', {
      interactionId: interaction.interactionId,
      answer: { action: 'accept', answers: { color: { optionIds: ['option-1'] } } },
    });
    expect((await turnReaches(sessionId, 't1', ['completed', 'failed'])).status).toBe('completed');
    expect(server.toolResultsIn(base + 1)[0]?.content).toContain('Red');
    expect((await items(sessionId)).at(-1)?.text).toBe('Red it is.');
  });
});

/** The pid of the app-server this host started (its CODEX_HOME is inside the host's data directory). */
function appServerPid(dataDir: string): number | null {
  return appServerPids(dataDir)[0] ?? null;
}

describe('Codex failures', { timeout: 60_000 }, () => {
  for (const [name, reply] of [
    ['HTTP 500', responsesErrors.serverError()],
    ['a cut stream', streamReply({ text: ['Half an ans'], ending: 'drop' })],
    [
      'response.failed',
      streamReply({ text: [], ending: { error: { code: 'server_error', message: 'The model broke down' } } }),
    ],
  ] as const) {
    it(`${name} fails the turn with the reason; the session stays usable`, async () => {
      const { sessionId } = await codexSession();
      server.enqueue(reply);
      await t.call('turn.start', { sessionId, turnId: 't1', text: 'Try' });
      const failed = await turnReaches(sessionId, 't1', ['completed', 'failed']);
      expect(failed.status).toBe('failed');
      const run = (await t.call('turn.query', { sessionId, turnId: 't1' })).turn.latestRun;
      expect(run).toMatchObject({ terminalReason: 'provider_error' });
      expect(run?.errorMessage).toMatch(/^Codex: /);
      if (name === 'HTTP 500') {
        // The real status and attempts beside Codex's own "high demand" text (retries are 0 here: one attempt).
        expect(run?.errorMessage).toMatch(
          /^Codex: The model server answered 500 \(1 attempt made\)\. Codex says: We.re currently experiencing high demand/,
        );
        expect((await t.call('codex.turnResults', { sessionId, turnId: 't1' })).results[0]?.errorMessage).toContain(
          'The model server answered 500',
        );
      }
      server.enqueue(textReply('Fine now.'));
      await t.call('turn.start', { sessionId, turnId: 't2', text: 'Again' });
      expect((await turnReaches(sessionId, 't2', ['completed', 'failed'])).status).toBe('completed');
    });
  }

  it('codex killed mid-turn: agent_process_exited with its stderr tail; the next turn resumes the thread in a new app-server', async () => {
    const { sessionId } = await codexSession();
    const base = server.modelCalls().length;
    server.enqueue(hangReply(['Partial']));
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Remember the word kestrel' });
    await server.waitForModelCall(base);
    const pid = appServerPid(t.dataDir);
    if (pid === null) throw new Error('no app-server found for this host');
    process.kill(pid, 'SIGKILL');
    const failed = await turnReaches(sessionId, 't1', ['failed', 'completed']);
    expect(failed.status).toBe('failed');
    const run = (await t.call('turn.query', { sessionId, turnId: 't1' })).turn.latestRun;
    expect(run).toMatchObject({ terminalReason: 'agent_process_exited' });
    expect(run?.errorMessage).toContain('SIGKILL');
    server.enqueue(textReply('Kestrel.'));
    await t.call('turn.start', { sessionId, turnId: 't2', text: 'Which word?' });
    expect((await turnReaches(sessionId, 't2', ['completed', 'failed'])).status).toBe('completed');
    expect(JSON.stringify((await server.waitForModelCall(base + 1)).body)).toContain('kestrel');
    expect(appServerPid(t.dataDir)).not.toBe(pid);
  });

  it('Stop when Codex ignores the interrupt: cancelled at once, the process group killed within the bound', async () => {
    const { sessionId } = await codexSession();
    const base = server.modelCalls().length;
    server.enqueue(hangReply(['Slow']));
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Go slowly' });
    await server.waitForModelCall(base);
    const pid = appServerPid(t.dataDir);
    if (pid === null) throw new Error('no app-server found for this host');
    process.kill(pid, 'SIGSTOP'); // a Codex that answers nothing
    const started = Date.now();
    await t.call('turn.stop', { sessionId, turnId: 't1' });
    expect((await t.call('turn.query', { sessionId, turnId: 't1' })).turn.status).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(1000);
    await waitFor(() => processGone(pid), { message: 'the stopped app-server killed', timeoutMs: 10_000 });
    expect(Date.now() - started).toBeLessThan(6000);
    server.enqueue(textReply('Back.'));
    await t.call('turn.start', { sessionId, turnId: 't2', text: 'Again' });
    expect((await turnReaches(sessionId, 't2', ['completed', 'failed'])).status).toBe('completed');
  });
});

describe('Codex goals', { timeout: 60_000 }, () => {
  it('a Cairn goal runs as goal turns through Codex; Codex marking it complete completes the Cairn goal', async () => {
    const { sessionId } = await codexSession('full');
    const base = server.modelCalls().length;
    server.enqueue(
      toolCallReply({ id: 'call_g', name: 'update_goal', input: { status: 'complete' } }),
      textReply('The goal is reached.'),
    );
    const { goal } = await t.call('goal.arm', {
      sessionId,
      objective: 'Count the herons',
      tokenBudget: null,
      maxIterations: 3,
    });
    const done = await waitFor(
      async () => {
        const current = (await t.call('goal.get', { sessionId })).goal;
        return current?.status === 'complete' ? current : null;
      },
      { message: 'the goal to complete', timeoutMs: 20_000 },
    );
    expect(done.goalId).toBe(goal.goalId);
    expect(JSON.stringify((await server.waitForModelCall(base)).body)).toContain('Count the herons');
    const turnIds = [...new Set((await items(sessionId)).map((item) => item.turnId))];
    expect(turnIds).toHaveLength(1);
    const turn = await turnReaches(sessionId, turnIds[0] ?? '', ['completed']);
    expect(turn.origin).toBe('goal');
    expect(server.modelCalls().length).toBe(base + 2); // no turn started unseen after the goal completed
  });

  it("a goal turn is Codex's own continuation turn: recorded as a Cairn goal turn that completes, the goal's tokens and time from its usage", async () => {
    const { sessionId } = await codexSession('full');
    const base = server.modelCalls().length;
    server.enqueue(
      streamReply({
        toolCalls: [
          {
            id: 'call_sleep',
            name: 'exec_command',
            argumentChunks: [JSON.stringify({ cmd: 'sleep 1.2; echo counted' })],
          },
        ],
        usage: { inputTokens: 4000, outputTokens: 100, cachedInputTokens: 3000 },
      }),
      toolCallReply({ id: 'call_g', name: 'update_goal', input: { status: 'complete' } }),
      textReply('The herons are counted.', 3, { inputTokens: 5000, outputTokens: 40, cachedInputTokens: 4000 }),
    );
    const { goal } = await t.call('goal.arm', {
      sessionId,
      objective: 'Count the herons',
      tokenBudget: null,
      maxIterations: 3,
    });
    const done = await waitFor(
      async () => {
        const current = (await t.call('goal.get', { sessionId })).goal;
        return current?.status === 'complete' && current.iterations === 1 ? current : null;
      },
      { message: 'the goal to complete with its turn counted', timeoutMs: 20_000 },
    );
    expect(done).toMatchObject({ goalId: goal.goalId, lastReason: 'Codex marked the goal complete.' });
    // Codex started the turn itself: its own goal prompt and trigger, no request from Cairn.
    const first = await server.waitForModelCall(base);
    expect(lastUserText(first.body)).toMatch(/^<codex_internal_context source="goal">/);
    expect(JSON.parse(first.headers['x-codex-turn-metadata'] as string)).toMatchObject({ turn_trigger: 'goal' });
    expect(JSON.stringify(first.body)).toContain('Count the herons');
    // One Cairn goal turn holds it all: the command, the final text; completed.
    const transcript = await items(sessionId);
    const turnIds = [...new Set(transcript.map((item) => item.turnId))];
    expect(turnIds).toHaveLength(1);
    const turn = await turnReaches(sessionId, turnIds[0] ?? '', ['completed']);
    expect(turn.origin).toBe('goal');
    const result = transcript.find((item) => item.kind === 'tool_result');
    expect(result?.data).toMatchObject({ toolName: 'run_shell', output: { exitCode: 0, status: 'completed' } });
    expect(JSON.stringify(result?.data)).toContain('counted');
    expect(transcript.at(-1)?.text).toBe('The herons are counted.');
    // The goal counts the turn's tokens (as usage.summary has them) and the time it ran.
    const usage = await t.call('usage.summary', { by: 'session', sessionId });
    expect(done.tokensUsed).toBe(usage.totals.inputTokens + usage.totals.outputTokens);
    expect(done.tokensUsed).toBe(4000 + 100 + 10 + 5 + 5000 + 40);
    expect(done.timeUsedSeconds).toBeGreaterThanOrEqual(1);
    // The goal was paused as soon as the turn started: Codex chained no turn of its own after it.
    expect(server.modelCalls().length).toBe(base + 3);
  });

  it('clearing the Cairn goal clears the Codex thread goal: get_goal then finds none', async () => {
    const { sessionId } = await codexSession('full');
    server.enqueue(textReply('Still counting.'));
    const { goal } = await t.call('goal.arm', {
      sessionId,
      objective: 'Count the herons',
      tokenBudget: null,
      maxIterations: 1,
    });
    const limited = await waitFor(
      async () => {
        const current = (await t.call('goal.get', { sessionId })).goal;
        return current?.status === 'iterationLimited' ? current : null;
      },
      { message: 'the goal to reach its turn cap', timeoutMs: 20_000 },
    );
    await t.call('goal.control', {
      sessionId,
      goalId: goal.goalId,
      expectedRevision: limited.revision,
      action: 'clear',
    });
    server.enqueue(toolCallReply({ id: 'call_get', name: 'get_goal', input: {} }), textReply('There is no goal.'));
    await t.call('turn.start', { sessionId, turnId: 'after-clear', text: 'Is there a goal?' });
    expect((await turnReaches(sessionId, 'after-clear', ['completed', 'failed'])).status).toBe('completed');
    // Codex's continuation turn left its goal objective in the thread's history as a tool output
    // ("goal_objective"); get_goal's own result is the one with its call id.
    const answer = server.toolResultFor('call_get')?.content ?? '';
    expect(JSON.parse(answer)).toMatchObject({ goal: null }); // before the clear it was the paused "Count the herons"
    expect((await t.call('goal.get', { sessionId })).goal).toBeNull();
  });
});

describe('Codex delegations', { timeout: 60_000 }, () => {
  it('a WorkHub delegation asks Codex for a structured answer and stores it validated; an invalid one is recorded as invalid', async () => {
    const { connectionId } = await codexSession();
    const { session } = await t.call('session.create', { title: 'Quarterly report', connectionId });
    const base = server.modelCalls().length;
    server.enqueue(textReply('{"outcome":"done","summary":"The chart is in."}', 3));
    const routed = await t.call('workhub.route', {
      requestId: 'req-1',
      text: 'Add the revenue chart to the quarterly report',
    });
    await t.call('workhub.act', {
      actionId: 'act-1',
      proposal: routed.proposal,
      candidateSetId: routed.candidateSetId,
    });
    await turnReaches(session.sessionId, 'delegation-act-1', ['completed']);
    expect(JSON.stringify((await server.waitForModelCall(base)).body)).toContain('needs_input'); // the output schema reached the model
    const done = await t.call('codex.turnResults', { sessionId: session.sessionId, turnId: 'delegation-act-1' });
    expect(done.results[0]?.structured).toEqual({
      valid: true,
      value: { outcome: 'done', summary: 'The chart is in.' },
    });

    server.enqueue(textReply('I think it is done, probably.'));
    const again = await t.call('workhub.route', { requestId: 'req-2', text: 'Check the quarterly report once more' });
    await t.call('workhub.act', { actionId: 'act-2', proposal: again.proposal, candidateSetId: again.candidateSetId });
    await turnReaches(session.sessionId, 'delegation-act-2', ['completed']);
    const invalid = await t.call('codex.turnResults', { sessionId: session.sessionId, turnId: 'delegation-act-2' });
    expect(invalid.results[0]?.structured).toMatchObject({ valid: false, problem: 'The final message is not JSON.' });
  });
});
