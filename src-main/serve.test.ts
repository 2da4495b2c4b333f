import { afterEach, describe, expect, it } from 'vitest';
import type { ChangeEvent } from '../src-shared/events';
import { tempDataDir } from './testing/host-fixture';
import { connectProtocolClient, type ProtocolClient } from './testing/protocol-client';
import { startServeProcess, type ServeProcess } from './testing/serve-process';
import { waitFor } from './testing/wait-for';

const TOKEN = 'serve-test-token-123';
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(dataDir: string): Promise<ServeProcess> {
  const process = await startServeProcess({ dataDir, token: TOKEN });
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

describe('the headless host process', () => {
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
    const text = page.items.filter((item) => item.kind === 'assistant_message').map((item) => item.text).join('');
    for (let index = 1; index <= 200; index += 1) expect(text.split(`chunk ${index}/200`)).toHaveLength(2);
    expect(text).toContain('(Resuming: the previous attempt ended because the app restarted.)');
  });

  it('marks a command left running by a SIGKILLed host as orphaned on the next start', async () => {
    const { dir, cleanup } = tempDataDir();
    cleanups.push(cleanup);
    const first = await serve(dir);
    const c = await client(first);
    const { session } = await c.call('session.create', { workspacePath: dir, permissionMode: 'full' });
    await c.call('turn.start', { sessionId: session.sessionId, turnId: 'sh', text: '/tool run_shell {"command":"sleep 60"}' });
    const running = await waitFor(
      async () => (await c.call('shell.list', { sessionId: session.sessionId })).shellRuns.find((run) => run.status === 'running'),
      { message: 'the command to run' },
    );
    cleanups.push(() => {
      try {
        process.kill(-(running.pid ?? 0), 'SIGKILL');
      } catch {
        // already gone
      }
    });
    first.child.kill('SIGKILL');
    await first.exited;
    const second = await serve(dir);
    const d = await client(second);
    const { shellRun } = await d.call('shell.get', { shellRunId: running.shellRunId });
    expect(shellRun).toMatchObject({ status: 'orphaned', failureMessage: 'The app restarted without a live handle to this process' });
  });

  it('refuses a second host on the same data directory, naming it and the owner', async () => {
    const { dir, cleanup } = tempDataDir();
    cleanups.push(cleanup);
    const first = await serve(dir);
    const second = startServeProcess({ dataDir: dir, token: TOKEN });
    await expect(second).rejects.toThrow(new RegExp(`exited \\(1\\)[\\s\\S]*${dir}[\\s\\S]*process ${first.child.pid}`));
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
});
