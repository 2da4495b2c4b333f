import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChangeEvent } from '../src-shared/events';
import type { RunSummary } from '../src-shared/model';
import { processGroupGone } from './runtime/shell/process-group';
import { tempDataDir } from './testing/host-fixture';
import { processesIn } from './testing/processes-in';
import { connectProtocolClient, type ProtocolClient } from './testing/protocol-client';
import { runServeToExit, SERVE_PROCESS_TESTS, startServeProcess, type ServeProcess } from './testing/serve-process';
import { waitFor } from './testing/wait-for';

const TOKEN = 'serve-test-token-123';
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(dataDir: string, env?: Record<string, string>): Promise<ServeProcess> {
  const process = await startServeProcess({ dataDir, token: TOKEN, ...(env === undefined ? {} : { env }) });
  cleanups.push(async () => {
    if (process.child.exitCode === null && process.child.signalCode === null) process.child.kill('SIGKILL');
    await process.exited;
  });
  return process;
}

async function client(server: ServeProcess): Promise<ProtocolClient> {
  const connected = await connectProtocolClient(server.wsUrl, { token: TOKEN });
  cleanups.push(() => connected.close());
  return connected;
}

/** The text of each transcript item as the events a client received describe it. */
function acknowledgedTexts(events: readonly ChangeEvent[]): Map<string, string> {
  const texts = new Map<string, string>();
  for (const event of events) {
    if (event.kind === 'transcript.appended') texts.set(event.item.itemId, event.item.text);
    if (event.kind === 'transcript.delta') texts.set(event.itemId, (texts.get(event.itemId) ?? '') + event.text);
  }
  return texts;
}

/** Every run of every goal turn of a session, oldest first. */
async function goalRuns(c: ProtocolClient, sessionId: string): Promise<RunSummary[]> {
  const { turns } = await c.call('transcript.page', { sessionId, limit: 500 });
  const runs: RunSummary[] = [];
  for (const turn of turns.filter((candidate) => candidate.origin === 'goal')) {
    runs.push(...(await c.call('turn.query', { sessionId, turnId: turn.turnId })).turn.runs);
  }
  return runs;
}

describe('the headless host process', SERVE_PROCESS_TESTS, () => {
  it('keeps every acknowledged word through a SIGKILL, marks the run interrupted, and resumes it', async () => {
    const { dir, cleanup } = tempDataDir();
    cleanups.push(cleanup);
    const first = await serve(dir);
    const before = await client(first);
    const { session } = await before.call('session.create', {});
    await before.call('turn.start', { sessionId: session.sessionId, turnId: 'long', text: '/stream 200 20' });
    await waitFor(() => [...acknowledgedTexts(before.events).values()].some((text) => text.includes('chunk 40/200')), {
      message: '40 chunks to stream',
      timeoutMs: 10_000,
    });
    first.child.kill('SIGKILL');
    await first.exited;
    const acknowledged = acknowledgedTexts(before.events);

    const second = await serve(dir);
    const after = await client(second);
    expect(after.welcome.hostEpoch).not.toBe(before.welcome.hostEpoch);
    const snapshot = await after.call('session.get', { sessionId: session.sessionId });
    for (const [itemId, text] of acknowledged) {
      const item = snapshot.transcript.items.find((candidate) => candidate.itemId === itemId);
      expect(item?.text.startsWith(text)).toBe(true);
    }
    const { turn } = await after.call('turn.query', { sessionId: session.sessionId, turnId: 'long' });
    expect(turn.status).toBe('interrupted');
    expect(turn.latestRun).toMatchObject({ status: 'interrupted', terminalReason: 'app_restarted' });
    expect(snapshot.session.activity).toBe('interrupted');

    await after.call('turn.resume', { sessionId: session.sessionId, turnId: 'long' });
    const done = await waitFor(
      async () => {
        const query = await after.call('turn.query', { sessionId: session.sessionId, turnId: 'long' });
        return query.turn.status === 'completed' ? query.turn : null;
      },
      { timeoutMs: 15_000, message: 'the resumed turn to complete' },
    );
    expect(done.runs.map((run) => [run.kind, run.status, run.terminalReason])).toEqual([
      ['initial', 'interrupted', 'app_restarted'],
      ['resume', 'completed', 'end_turn'],
    ]);
    const page = await after.call('transcript.page', { sessionId: session.sessionId, limit: 500 });
    const text = page.items
      .filter((item) => item.kind === 'assistant_message')
      .map((item) => item.text)
      .join('');
    for (let index = 1; index <= 200; index += 1) expect(text.split(`chunk ${index}/200`)).toHaveLength(2);
    expect(text).not.toContain('Resum');
    expect(page.items.filter((item) => item.kind === 'notice').map((item) => item.text)).toEqual([
      'Resumed: the previous attempt ended because the app restarted.',
    ]);
  });

  it('stops a command a SIGKILLed host left running at the next start, and the record says so', async () => {
    const { dir, cleanup } = tempDataDir();
    cleanups.push(cleanup);
    // Its own folder: a workspace that held the data directory would have the checkpoints copy the
    // database into git, which outlives a SIGKILLed host for seconds and races the removal.
    const workspace = tempDataDir();
    cleanups.push(workspace.cleanup);
    const first = await serve(dir);
    const c = await client(first);
    const { session } = await c.call('session.create', { workspacePath: workspace.dir, permissionMode: 'full' });
    // Writes only to a file: it does not die of a broken pipe when the host does.
    const command = 'while true; do date >> ticks; sleep 0.2; done';
    await c.call('turn.start', {
      sessionId: session.sessionId,
      turnId: 'sh',
      text: `/tool run_shell ${JSON.stringify({ command })}`,
    });
    const running = await waitFor(
      async () =>
        (await c.call('shell.list', { sessionId: session.sessionId })).shellRuns.find(
          (run) => run.status === 'running',
        ),
      {
        message: 'the command to run',
      },
    );
    const pid = running.pid ?? 0;
    cleanups.push(() => {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // already gone
      }
    });
    // `running` means spawned, not yet writing: under load bash may not have written a tick by now.
    const ticks = join(workspace.dir, 'ticks');
    const ticked = () => statSync(ticks, { throwIfNoEntry: false })?.size ?? 0;
    await waitFor(() => ticked() > 0, { message: 'the command to write its first tick' });
    first.child.kill('SIGKILL');
    await first.exited;
    const size = ticked();
    await waitFor(() => ticked() > size, { message: 'the command to outlive its host' });

    const second = await serve(dir);
    const d = await client(second);
    await waitFor(() => processGroupGone(pid), { message: 'the left-over command to be stopped' });
    const { shellRun } = await d.call('shell.get', { shellRunId: running.shellRunId });
    expect(shellRun).toMatchObject({
      status: 'orphaned',
      failureMessage: 'Cairn stopped this command, which was still running after the app restarted.',
    });
  });

  it('a sandboxed command, setsid children included, dies with a SIGKILLed host; the next start finds it gone', async () => {
    const { dir, cleanup } = tempDataDir();
    cleanups.push(cleanup);
    // Under /var/tmp: inside the sandbox /tmp is private, and the test must see the workspace it writes.
    const workspace = mkdtempSync('/var/tmp/cairn-serve-sandbox-');
    cleanups.push(() => rmSync(workspace, { recursive: true, force: true }));
    const first = await serve(dir, { CAIRN_SANDBOX: 'detect' });
    const c = await client(first);
    const { session } = await c.call('session.create', { workspacePath: workspace, permissionMode: 'auto' });
    const command = 'setsid sh -c "while true; do date >> ticks; sleep 0.2; done" & while true; do sleep 0.2; done';
    await c.call('turn.start', {
      sessionId: session.sessionId,
      turnId: 'sh',
      text: `/tool run_shell ${JSON.stringify({ command })}`,
    });
    const running = await waitFor(
      async () =>
        (await c.call('shell.list', { sessionId: session.sessionId })).shellRuns.find(
          (run) => run.status === 'running',
        ),
      {
        message: 'the command to run',
      },
    );
    await waitFor(() => statSync(join(workspace, 'ticks'), { throwIfNoEntry: false }) !== undefined, {
      message: 'the first tick',
    });
    first.child.kill('SIGKILL');
    await first.exited;
    await waitFor(() => processesIn(workspace).length === 0, {
      message: 'every sandboxed process to die with the host',
    });

    const second = await serve(dir, { CAIRN_SANDBOX: 'detect' });
    const d = await client(second);
    const { shellRun } = await d.call('shell.get', { shellRunId: running.shellRunId });
    expect(shellRun).toMatchObject({
      status: 'orphaned',
      failureMessage: 'The app restarted while this command ran; it was no longer running.',
    });
  });

  it('a second host on the same data directory points to the running one and steps aside; one whose owner does not answer is refused, naming it and the owner', async () => {
    const { dir, cleanup } = tempDataDir();
    cleanups.push(cleanup);
    const first = await serve(dir);
    const second = await runServeToExit({ dataDir: dir, token: TOKEN });
    expect(second.code).toBe(0);
    expect(second.output).toContain(`Cairn is already running for ${dir}; its page: ${first.url}`);

    // An owner that does not answer on the directory's socket (here: it was removed) cannot be pointed to.
    rmSync(join(dir, 'host.sock'));
    const third = startServeProcess({ dataDir: dir, token: TOKEN });
    await expect(third).rejects.toThrow(new RegExp(`exited \\(1\\)[\\s\\S]*${dir}[\\s\\S]*process ${first.child.pid}`));
  });

  it('shuts down cleanly on SIGTERM: running work becomes resumable and the lock is released', async () => {
    const { dir, cleanup } = tempDataDir();
    cleanups.push(cleanup);
    const first = await serve(dir);
    const c = await client(first);
    const { session } = await c.call('session.create', {});
    await c.call('turn.start', { sessionId: session.sessionId, turnId: 'slow', text: '/stream 100 50' });
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const second = await serve(dir);
    const d = await client(second);
    const { turn } = await d.call('turn.query', { sessionId: session.sessionId, turnId: 'slow' });
    expect(turn.latestRun).toMatchObject({ status: 'interrupted', terminalReason: 'app_shutdown' });
  });

  it('starts no new work after SIGTERM: the goal turn ends app_shutdown and the goal goes on after the restart', async () => {
    const { dir, cleanup } = tempDataDir();
    cleanups.push(cleanup);
    const first = await serve(dir);
    const c = await client(first);
    const { session } = await c.call('session.create', {});
    const sessionId = session.sessionId;
    await c.call('goal.arm', {
      sessionId,
      objective: 'Polish the notes, finish after 60',
      tokenBudget: null,
      maxIterations: null,
    });
    await waitFor(
      async () => {
        const { goal } = await c.call('goal.get', { sessionId });
        const active = (await c.call('session.get', { sessionId })).activeTurn;
        return goal !== null && goal.iterations >= 2 && active?.origin === 'goal' && active.status === 'running';
      },
      { message: 'two goal turns done and a third running', timeoutMs: 10_000 },
    );
    const sigtermAt = Date.now();
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const restartedAt = Date.now();

    const second = await serve(dir);
    const d = await client(second);
    const runs = await goalRuns(d, sessionId);
    expect(runs.filter((run) => run.startedAt >= sigtermAt && run.startedAt < restartedAt)).toEqual([]);
    expect(runs.filter((run) => run.terminalReason === 'app_restarted')).toEqual([]);
    expect(runs.filter((run) => run.startedAt < restartedAt).at(-1)).toMatchObject({
      status: 'interrupted',
      terminalReason: 'app_shutdown',
    });
    const { goal } = await d.call('goal.get', { sessionId });
    expect(goal?.status).toBe('active');
    const iterations = goal?.iterations ?? 0;
    await waitFor(async () => ((await d.call('goal.get', { sessionId })).goal?.iterations ?? 0) > iterations + 1, {
      message: 'the goal to go on after the restart',
      timeoutMs: 10_000,
    });
  });
});
