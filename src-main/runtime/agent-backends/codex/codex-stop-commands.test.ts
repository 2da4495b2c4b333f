import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestHost, type TestHost } from '../../../testing/host-fixture';
import {
  startOpenAIResponsesServer,
  textReply,
  toolCallReply,
  type ProviderTestServer,
} from '../../../testing/provider-servers';
import { waitFor } from '../../../testing/wait-for';
import { appServerPids } from '../../../testing/codex-processes';
import { descendantsOf } from '../../shell/process-tree';
import { processGone } from '../../shell/process-group';

/** The commands a Codex turn runs: what Stop does to them, and ones that outlive their turn; against the real `codex app-server`. */

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

async function codexSession(permissionMode: 'ask' | 'full' = 'full') {
  t = await startTestHost({ codex: { retries: 0, bounds: { interruptMs: 3000 } } });
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
  return { sessionId: session.sessionId, workspace };
}

/** The command line of a running process, or '' once it is gone. */
function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

describe('Stop during a Codex command', { timeout: 90_000 }, () => {
  it('stops the command Codex is running: its file is never written, and the command shows stopped', async () => {
    const { sessionId, workspace } = await codexSession();
    server.enqueue(
      toolCallReply({
        id: 'call_sleep',
        name: 'exec_command',
        input: { cmd: 'sleep 60; echo late > late.txt', yield_time_ms: 30_000 },
      }),
      textReply('Done.'),
    );
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Sleep, then write' });
    const appServer = await waitFor(() => appServerPids(t.dataDir)[0], {
      message: 'the app-server',
      timeoutMs: 20_000,
    });
    // The command's shell and its sleep, children of the app-server. The sleep is long, so finding it
    // never races its own end on a loaded machine, and only a kill ends it within the wait below.
    const sleeper = await waitFor(
      () =>
        descendantsOf(appServer)
          .map((entry) => entry.pid)
          .find((pid) => commandLine(pid).startsWith('sleep 60')),
      { message: 'the sleep', timeoutMs: 20_000 },
    );
    const shell = await waitFor(
      () =>
        descendantsOf(appServer)
          .map((entry) => entry.pid)
          .find((pid) => commandLine(pid).includes('echo late > late.txt')),
      { message: 'its shell', timeoutMs: 5_000 },
    );
    const run = await waitFor(async () => (await t.call('shell.list', { sessionId, limit: 10 })).shellRuns[0], {
      message: 'the shell run',
      timeoutMs: 10_000,
    });
    expect(run).toMatchObject({ status: 'running', turnId: 't1' });
    await t.call('turn.stop', { sessionId, turnId: 't1' });
    expect((await t.call('turn.query', { sessionId, turnId: 't1' })).turn.status).toBe('cancelled');
    // The shell that would write the file ends: stopped, not finished (the sleep had most of a minute to go).
    await waitFor(() => processGone(shell) && processGone(sleeper), {
      message: 'the command stopped',
      timeoutMs: 15_000,
    });
    expect(existsSync(join(workspace, 'late.txt'))).toBe(false);
    const stopped = await waitFor(
      async () => {
        const current = (await t.call('shell.get', { shellRunId: run.shellRunId })).shellRun;
        return current.status === 'running' ? null : current;
      },
      { message: 'the shell run to end', timeoutMs: 10_000 },
    );
    expect(stopped).toMatchObject({ status: 'killed', exitCode: null });
    expect(stopped.failureMessage).toMatch(/stopped/i);
    const { results } = await t.call('codex.turnResults', { sessionId, turnId: 't1' });
    expect(results[0]).toMatchObject({ status: 'interrupted', commands: [{ status: 'stopped', exitCode: null }] });
  });
});

describe('A command allowed in Ask mode', { timeout: 90_000 }, () => {
  it('is a running shell run as soon as it is allowed, before it prints anything, and Stop ends it', async () => {
    const { sessionId, workspace } = await codexSession('ask');
    const silent = {
      cmd: 'sleep 60; echo late > late.txt',
      yield_time_ms: 30_000,
      sandbox_permissions: 'require_escalated',
      justification: 'Needs to wait',
    };
    server.enqueue(toolCallReply({ id: 'call_silent', name: 'exec_command', input: silent }), textReply('Done.'));
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Wait a minute, then write' });
    const interaction = await waitFor(
      async () => (await t.call('interaction.list', { sessionId, status: 'pending' })).interactions[0],
      {
        message: 'the approval card',
        timeoutMs: 20_000,
      },
    );
    expect((await t.call('shell.list', { sessionId, limit: 10 })).shellRuns).toEqual([]);
    await t.call('interaction.answer', {
      interactionId: interaction.interactionId,
      answer: { action: 'accept', decision: 'allow_once' },
    });
    // The command prints nothing for a minute: it is in Commands, running, all the same.
    const run = await waitFor(async () => (await t.call('shell.list', { sessionId, limit: 10 })).shellRuns[0], {
      message: 'the shell run',
      timeoutMs: 20_000,
    });
    expect(run).toMatchObject({ status: 'running', exitCode: null });
    expect(run.command).toContain('sleep 60');
    const appServer = appServerPids(t.dataDir)[0] ?? 0;
    const sleeper = await waitFor(
      () =>
        descendantsOf(appServer)
          .map((entry) => entry.pid)
          .find((pid) => commandLine(pid).startsWith('sleep 60')),
      { message: 'the sleep', timeoutMs: 20_000 },
    );
    await t.call('turn.stop', { sessionId, turnId: run.turnId });
    await waitFor(() => processGone(sleeper), { message: 'the command stopped', timeoutMs: 15_000 });
    const stopped = await waitFor(
      async () => {
        const current = (await t.call('shell.get', { shellRunId: run.shellRunId })).shellRun;
        return current.status === 'running' ? null : current;
      },
      { message: 'the shell run to end', timeoutMs: 10_000 },
    );
    expect(stopped).toMatchObject({ status: 'killed', exitCode: null });
    expect(existsSync(join(workspace, 'late.txt'))).toBe(false);
  });
});

describe('Codex commands that outlive their turn', { timeout: 90_000 }, () => {
  /** Codex yields a command after half a second and ends the turn while it runs (its background command). */
  const yielded = (cmd: string) =>
    toolCallReply({ id: 'call_bg', name: 'exec_command', input: { cmd, yield_time_ms: 500 } });

  async function leftRunning(sessionId: string) {
    expect((await t.waitForTurn(sessionId, 't1', ['completed', 'failed'])).status).toBe('completed');
    const run = (await t.call('shell.list', { sessionId, limit: 10 })).shellRuns[0];
    expect(run).toMatchObject({ status: 'running', turnId: 't1', exitCode: null });
    const { results } = await t.call('codex.turnResults', { sessionId, turnId: 't1' });
    expect(results[0]).toMatchObject({ status: 'completed', commands: [{ status: 'running', exitCode: null }] });
    const items = (await t.call('transcript.page', { sessionId, limit: 50 })).items;
    expect(items.find((item) => item.kind === 'tool_call')?.data).toMatchObject({
      toolCallId: run?.toolCallId,
      toolName: 'run_shell',
    });
    if (run === undefined) throw new Error('no shell run');
    return run;
  }

  it('is a running shell run and a running command of the turn; recorded with its output and exit code when it ends', async () => {
    const { sessionId, workspace } = await codexSession();
    server.enqueue(
      yielded('while [ ! -f go ]; do sleep 0.1; done; echo background-finished'),
      textReply('It runs in the background.'),
    );
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Start it in the background' });
    const run = await leftRunning(sessionId);
    writeFileSync(join(workspace, 'go'), '');
    const ended = await waitFor(
      async () => {
        const current = (await t.call('shell.get', { shellRunId: run.shellRunId })).shellRun;
        return current.status === 'running' ? null : current;
      },
      { message: 'the background command to end', timeoutMs: 20_000 },
    );
    expect(ended).toMatchObject({ status: 'exited', exitCode: 0 });
    expect(ended.stdoutTail).toContain('background-finished');
    const { results } = await t.call('codex.turnResults', { sessionId, turnId: 't1' });
    expect(results[0]?.commands).toMatchObject([{ status: 'completed', exitCode: 0 }]);
  });

  it('Stop on it in Commands (shell.kill) ends it: its file is never written and it shows stopped', async () => {
    const { sessionId, workspace } = await codexSession();
    server.enqueue(
      yielded('while [ ! -f go ]; do sleep 0.1; done; echo late > late.txt'),
      textReply('It runs in the background.'),
    );
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Start it in the background' });
    const run = await leftRunning(sessionId);
    const appServer = appServerPids(t.dataDir)[0] ?? 0;
    const shell = descendantsOf(appServer)
      .map((entry) => entry.pid)
      .find((pid) => commandLine(pid).includes('echo late > late.txt'));
    expect(shell).toBeDefined();
    const { killed, shellRun } = await t.call('shell.kill', { shellRunId: run.shellRunId });
    expect(killed).toBe(true);
    expect(shellRun).toMatchObject({ status: 'killed', exitCode: null, failureMessage: 'Stopped by you.' });
    expect(processGone(shell ?? 0)).toBe(true);
    writeFileSync(join(workspace, 'go'), ''); // would let it write, were it still running
    const { results } = await t.call('codex.turnResults', { sessionId, turnId: 't1' });
    expect(results[0]?.commands).toMatchObject([{ status: 'stopped', exitCode: null }]);
    expect(existsSync(join(workspace, 'late.txt'))).toBe(false);
  });
});
