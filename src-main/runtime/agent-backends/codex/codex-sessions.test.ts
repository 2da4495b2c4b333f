import { describe, expect, it } from 'vitest';
import { appServerPid } from '../../../testing/codex-processes';
import { useCodexSessions } from '../../../testing/codex-sessions-fixture';
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hangReply, lastUserText, streamReply, textReply, toolCallReply } from '../../../testing/provider-servers';
import { processGone } from '../../shell/process-group';
import { findCodexBinary } from '../../connections/codex-binary';
import { CODEX_MODELS } from '../../connections/codex-connection';
import { waitFor } from '../../../testing/wait-for';
import { appServerPids } from '../../../testing/codex-processes';

/** Sessions on a Codex connection, run by the real `codex app-server` against a scripted Responses server: connection, streaming, Stop, approvals, commands, questions. */

const codex = useCodexSessions();
const { codexSession, pendingInteraction, turnReaches, items } = codex;

const escalated = (command: string) => ({
  cmd: command,
  sandbox_permissions: 'require_escalated',
  justification: 'Needs to write outside the sandbox',
});

describe('Codex sessions', { timeout: 60_000 }, () => {
  it('tests the connection: the version of the codex it found', async () => {
    const { connectionId } = await codexSession();
    const result = await codex.t.call('connection.test', { connectionId });
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
      const outcome = await codex.t.invoke('connection.update', {
        connectionId,
        expectedRevision: 1,
        codexBinary: path,
      });
      expect(outcome.ok ? 'accepted' : outcome.error).toMatchObject({
        code: 'invalid_input',
        message: expect.stringContaining(words) as unknown,
      });
    }
    const other = await codex.t.invoke('connection.create', {
      name: 'Not Codex',
      providerType: 'ollama',
      codexBinary: own,
    });
    expect(other.ok ? 'accepted' : other.error).toMatchObject({
      code: 'invalid_input',
      message: 'Only a Codex connection runs a codex binary.',
    });

    const { connection } = await codex.t.call('connection.update', {
      connectionId,
      expectedRevision: 1,
      codexBinary: own,
    });
    expect(connection.codexBinary).toBe(own);
    const tested = await codex.t.call('connection.test', { connectionId });
    expect(tested.verdict).toBe('ok');
    expect(tested.message).toMatch(new RegExp(`^Codex \\d+\\.\\d+\\.\\d+ \\(set on this connection: ${own}\\)`));
    codex.server.enqueue(hangReply(['Running on my own codex']));
    await codex.t.call('turn.start', { sessionId, turnId: 't1', text: 'Which codex?' });
    await waitFor(async () => (await items(sessionId)).some((item) => item.text.includes('Running on my own codex')), {
      message: 'the first text',
      timeoutMs: 20_000,
    });
    const pid = appServerPid(codex.t.dataDir);
    expect(readFileSync(`/proc/${pid ?? 0}/cmdline`, 'utf8').split('\0')[0]).toBe(own);
    await codex.t.call('turn.stop', { sessionId, turnId: 't1' });

    const cleared = await codex.t.call('connection.update', { connectionId, expectedRevision: 2, codexBinary: null });
    expect(cleared.connection.codexBinary).toBeNull();
    expect((await codex.t.call('connection.test', { connectionId })).message).toContain('bundled with Cairn');
  });

  it("lists the connection's models from Codex's model/list, cached while the connection's binary, base URL and key stay; a Codex that does not answer falls back to Cairn's list, saying so", async () => {
    const { connectionId } = await codexSession();
    const bundled = findCodexBinary(null);
    if (bundled === null) throw new Error('the bundled codex binary is missing');
    const folder = mkdtempSync(join(tmpdir(), 'cairn-codex-bin-'));
    const log = join(folder, 'runs.log');
    const wrapper = join(folder, 'codex');
    writeFileSync(wrapper, `#!/bin/sh\necho "$1" >> '${log}'\nexec '${bundled.path}' "$@"\n`, { mode: 0o755 });
    await codex.t.call('connection.update', { connectionId, expectedRevision: 1, codexBinary: wrapper });
    const appServerRuns = () =>
      readFileSync(log, 'utf8')
        .split('\n')
        .filter((line) => line === 'app-server').length;

    const listed = await codex.t.call('connection.models.fetch', { connectionId });
    expect(listed.notice).toBeNull();
    // Codex's own names ("GPT-5.5"), where Cairn's list would only have the ids.
    expect(listed.connection.models).toContainEqual(expect.objectContaining({ modelId: 'gpt-5.5', label: 'GPT-5.5' }));
    expect(appServerRuns()).toBe(1);
    await waitFor(() => appServerPids(codex.t.dataDir).length === 0, {
      message: 'the model-list app-server to end',
      timeoutMs: 5_000,
    });
    const { connection } = await codex.t.call('connection.models.fetch', { connectionId });
    expect(connection.models).toEqual(listed.connection.models);
    expect(appServerRuns()).toBe(1); // cached
    await codex.t.call('connection.update', {
      connectionId,
      expectedRevision: connection.revision,
      baseUrl: `${codex.server.baseUrl}/`,
    });
    await codex.t.call('connection.models.fetch', { connectionId });
    expect(appServerRuns()).toBe(2); // what model/list depends on changed

    const broken = join(folder, 'broken-codex');
    writeFileSync(broken, '#!/bin/sh\necho "this is not codex" >&2\nexit 3\n', { mode: 0o755 });
    const { connection: other } = await codex.t.call('connection.create', {
      name: 'Broken Codex',
      providerType: 'codex',
      baseUrl: codex.server.baseUrl,
      codexBinary: broken,
    });
    const fallback = await codex.t.call('connection.models.fetch', { connectionId: other.connectionId });
    expect(fallback.notice).toMatch(
      /^Codex did not list its models \(.+\), so these are the models Cairn knows codex 0\.171 ships\.$/,
    );
    expect(fallback.connection.models.map((model) => model.modelId)).toEqual(
      CODEX_MODELS.map((model) => model.modelId),
    );
  });

  it('streams a text turn through Codex, durable, with reasoning and with usage in usage.summary', async () => {
    const { sessionId } = await codexSession();
    const base = codex.server.modelCalls().length;
    codex.server.enqueue(
      streamReply({
        reasoning: ['Thinking ', 'it over.'],
        text: ['Hello ', 'from the ', 'fake model.'],
        usage: { inputTokens: 120, outputTokens: 30 },
      }),
    );
    await codex.t.call('turn.start', { sessionId, turnId: 't1', text: 'Say hello' });
    const turn = await turnReaches(sessionId, 't1', ['completed', 'failed']);
    expect(turn.status).toBe('completed');
    expect(lastUserText((await codex.server.waitForModelCall(base)).body)).toContain('Say hello');
    expect((await items(sessionId)).map((item) => [item.kind, item.text])).toEqual([
      ['user_message', 'Say hello'],
      ['reasoning', 'Thinking it over.'],
      ['assistant_message', 'Hello from the fake model.'],
    ]);
    // Streamed: the message appeared while it was still being written.
    expect(
      codex.t.events.some(
        (event) =>
          event.kind === 'transcript.appended' &&
          event.item.kind === 'assistant_message' &&
          event.item.state === 'streaming',
      ),
    ).toBe(true);
    const summary = await codex.t.call('usage.summary', { by: 'session' });
    expect(summary.totals).toMatchObject({ inputTokens: 120, outputTokens: 30 });
    // The header's context meter: the latest request and answer of the window Codex reports for its model.
    const { meter } = await codex.t.call('context.meter', { sessionId });
    expect(meter).toMatchObject({ used: 150, windowSource: 'reported', modelId: 'gpt-5.5', outputReserve: 0 });
    expect(meter?.contextWindow).toBeGreaterThan(100_000);
    expect(
      codex.t.events.some(
        (event) => event.kind === 'context.changed' && event.sessionId === sessionId && event.meter.used === 150,
      ),
    ).toBe(true);
  });

  it('Stop during a slow stream: cancelled, nothing appended after; the next turn works on the same thread', async () => {
    const { sessionId } = await codexSession();
    const base = codex.server.modelCalls().length;
    codex.server.enqueue(hangReply(['Working on it']));
    await codex.t.call('turn.start', { sessionId, turnId: 't1', text: 'Take your time' });
    await waitFor(async () => (await items(sessionId)).some((item) => item.text.includes('Working on it')), {
      message: 'first text',
      timeoutMs: 20_000,
    });
    const started = Date.now();
    await codex.t.call('turn.stop', { sessionId, turnId: 't1' });
    expect((await codex.t.call('turn.query', { sessionId, turnId: 't1' })).turn.status).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(1000);
    const request = await codex.server.waitForModelCall(base);
    expect(await request.outcome).toBe('client_closed');
    await waitFor(
      async () =>
        (await codex.t.call('codex.turnResults', { sessionId, turnId: 't1' })).results[0]?.status === 'interrupted',
      {
        message: 'the interrupted result',
        timeoutMs: 10_000,
      },
    );
    expect((await codex.t.call('codex.forceStop', { sessionId })).stopped).toBe(true); // nothing quarantined
    const after = (await items(sessionId)).length;
    codex.server.enqueue(textReply('Second answer.'));
    await codex.t.call('turn.start', { sessionId, turnId: 't2', text: 'Again' });
    expect((await turnReaches(sessionId, 't2', ['completed', 'failed'])).status).toBe('completed');
    const all = await items(sessionId);
    expect(all.slice(after).map((item) => item.text)).toEqual(['Again', 'Second answer.']);
    const second = (await codex.server.waitForModelCall(base + 1)).body;
    expect(JSON.stringify(second)).toContain('Take your time');
  });

  it('a command approval becomes a Cairn approval with the exact command; allowed, it runs and shows its output and exit code', async () => {
    const { sessionId, workspace } = await codexSession('ask');
    const base = codex.server.modelCalls().length;
    codex.server.enqueue(
      toolCallReply({
        id: 'call_1',
        name: 'exec_command',
        input: escalated('echo approved > note.txt && echo wrote it'),
      }),
      textReply('The note is written.'),
    );
    await codex.t.call('turn.start', { sessionId, turnId: 't1', text: 'Write a note' });
    const interaction = await pendingInteraction(sessionId);
    expect(interaction.request).toMatchObject({
      kind: 'permission',
      toolName: 'run_shell',
      preview: { kind: 'command' },
    });
    expect(JSON.stringify(interaction.request)).toContain('echo approved > note.txt');
    await codex.t.call('interaction.answer', {
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
    expect(codex.server.toolResultsIn(base + 1)[0]?.content).toContain('wrote it');
    const { results } = await codex.t.call('codex.turnResults', { sessionId, turnId: 't1' });
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
    codex.server.enqueue(
      toolCallReply({ id: 'call_live', name: 'exec_command', input: { cmd: command, yield_time_ms: 30_000 } }),
      textReply('Both lines printed.'),
    );
    await codex.t.call('turn.start', { sessionId, turnId: 't1', text: 'Print two lines' });
    const live = await waitFor(
      () =>
        codex.t.events.find(
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
    const running = (await codex.t.call('shell.get', { shellRunId: live.shellRunId })).shellRun;
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
    const ended = (await codex.t.call('shell.get', { shellRunId: live.shellRunId })).shellRun;
    expect(ended).toMatchObject({ status: 'exited', exitCode: 0 });
    expect(ended.stdoutTail).toMatch(/first-line\s+second-line/);
    expect((await codex.t.call('shell.list', { sessionId, limit: 10 })).shellRuns).toHaveLength(1);
    expect(codex.t.events.some((event) => event.kind === 'shell.output' && event.text.includes('second-line'))).toBe(
      true,
    );
  });

  it('a declined command does not run; the reason stays with the decision, reaches Codex, and the turn completes', async () => {
    const { sessionId, workspace } = await codexSession('ask');
    const base = codex.server.modelCalls().length;
    codex.server.enqueue(
      toolCallReply({ id: 'call_1', name: 'exec_command', input: escalated('echo nope > denied.txt') }),
      textReply('Understood, I will not.'),
    );
    await codex.t.call('turn.start', { sessionId, turnId: 't1', text: 'Write a file' });
    const interaction = await pendingInteraction(sessionId);
    await codex.t.call('interaction.answer', {
      interactionId: interaction.interactionId,
      answer: { action: 'deny', reason: 'Not in this folder' },
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
    expect(JSON.stringify((await codex.server.waitForModelCall(base + 1)).body)).toContain(
      'The person declined your command and said why: Not in this folder',
    );
  });

  it('Stop while Codex waits for an approval closes it and ends that app-server; the next turn resumes the same thread', async () => {
    const { sessionId } = await codexSession('ask');
    const base = codex.server.modelCalls().length;
    codex.server.enqueue(
      toolCallReply({ id: 'call_1', name: 'exec_command', input: escalated('echo never > never.txt') }),
    );
    await codex.t.call('turn.start', { sessionId, turnId: 't1', text: 'Remember the osprey' });
    const interaction = await pendingInteraction(sessionId);
    const waitingPid = appServerPid(codex.t.dataDir);
    await codex.t.call('turn.stop', { sessionId, turnId: 't1' });
    expect((await codex.t.call('turn.query', { sessionId, turnId: 't1' })).turn.status).toBe('cancelled');
    expect(
      (await codex.t.call('interaction.get', { interactionId: interaction.interactionId })).interaction.status,
    ).toBe('closed');
    expect(waitingPid).not.toBeNull();
    await waitFor(() => processGone(waitingPid ?? 0), {
      message: 'the waiting app-server ended by Stop',
      timeoutMs: 10_000,
    });
    codex.server.enqueue(textReply('Osprey noted.'));
    await codex.t.call('turn.start', { sessionId, turnId: 't2', text: 'Which bird?' });
    expect((await turnReaches(sessionId, 't2', ['completed', 'failed'])).status).toBe('completed');
    expect(JSON.stringify((await codex.server.waitForModelCall(base + 1)).body)).toContain('Remember the osprey');
  });

  it('apply_patch asks with the diff; allowed, the file changes on disk', async () => {
    const { sessionId, workspace } = await codexSession('ask');
    writeFileSync(join(workspace, 'hello.txt'), 'old line\n');
    const patch = '*** Begin Patch\n*** Update File: hello.txt\n@@\n-old line\n+new line\n*** End Patch\n';
    codex.server.enqueue(toolCallReply({ id: 'call_p', name: 'apply_patch', input: patch }), textReply('Patched.'));
    await codex.t.call('turn.start', { sessionId, turnId: 't1', text: 'Change the line' });
    const interaction = await pendingInteraction(sessionId);
    expect(interaction.request).toMatchObject({
      kind: 'permission',
      toolName: 'apply_patch',
      preview: { kind: 'diff' },
    });
    expect(JSON.stringify(interaction.request)).toContain('+new line');
    await codex.t.call('interaction.answer', {
      interactionId: interaction.interactionId,
      answer: { action: 'accept', decision: 'allow_once' },
    });
    expect((await turnReaches(sessionId, 't1', ['completed', 'failed'])).status).toBe('completed');
    expect(readFileSync(join(workspace, 'hello.txt'), 'utf8')).toBe('new line\n');
    const { results } = await codex.t.call('codex.turnResults', { sessionId, turnId: 't1' });
    expect(results[0]).toMatchObject({ status: 'completed', finalMessage: 'Patched.', commands: [] });
    expect(results[0]?.filesChanged).toEqual([join(workspace, 'hello.txt')]);
  });

  it('requestUserInput becomes a question form; the answer goes back to Codex', async () => {
    const { sessionId } = await codexSession('ask');
    const base = codex.server.modelCalls().length;
    const question = {
      id: 'color',
      header: 'Colour',
      question: 'Which colour?',
      options: [
        { label: 'Red', description: 'warm' },
        { label: 'Blue', description: 'cool' },
      ],
    };
    codex.server.enqueue(
      toolCallReply({ id: 'call_q', name: 'request_user_input', input: { questions: [question] } }),
      textReply('Red it is.'),
    );
    await codex.t.call('turn.start', { sessionId, turnId: 't1', text: 'Ask me' });
    const interaction = await pendingInteraction(sessionId);
    expect(interaction.request).toMatchObject({
      kind: 'question',
      questions: [{ id: 'color', prompt: 'Which colour?' }],
    });
    await codex.t.call('interaction.answer', {
      interactionId: interaction.interactionId,
      answer: { action: 'accept', answers: { color: { optionIds: ['option-1'] } } },
    });
    expect((await turnReaches(sessionId, 't1', ['completed', 'failed'])).status).toBe('completed');
    expect(codex.server.toolResultsIn(base + 1)[0]?.content).toContain('Red');
    expect((await items(sessionId)).at(-1)?.text).toBe('Red it is.');
  });
});

/** The pid of the app-server this host started (its CODEX_HOME is inside the host's data directory). */
