import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  hangReply,
  startOpenAIResponsesServer,
  textReply,
  type ProviderTestServer,
} from '../../../testing/provider-servers';
import { startTestHost, tempDataDir, type TestHost } from '../../../testing/host-fixture';
import { appServerPids } from '../../../testing/codex-processes';
import { freezeProcess, freezerAvailable, type FrozenProcess } from '../../../testing/process-freezer';
import { waitFor } from '../../../testing/wait-for';
import { processGone } from '../../shell/process-group';

/**
 * Cleanup quarantine with a real app-server that SIGKILL cannot end: the process is frozen in the
 * kernel (cgroup freezer), as one stuck on a hung disk would be. Needs root and the cgroup-v1
 * freezer, which CI's machines have; elsewhere the test is skipped by name.
 */
const canFreeze = freezerAvailable();

let server: ProviderTestServer;
let t: TestHost;
let frozen: FrozenProcess | null = null;

beforeAll(async () => {
  server = await startOpenAIResponsesServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  await frozen?.thaw();
  frozen = null;
  server.discardQueued();
  await t.close();
});

async function turnEnds(sessionId: string, turnId: string) {
  return waitFor(
    async () => {
      const outcome = await t.invoke('turn.query', { sessionId, turnId });
      return outcome.ok && ['completed', 'failed', 'cancelled'].includes(outcome.result.turn.status)
        ? outcome.result.turn
        : null;
    },
    { timeoutMs: 20_000, message: `turn ${turnId} to end` },
  );
}

describe.skipIf(!canFreeze)('Codex cleanup quarantine (needs root and the cgroup freezer)', { timeout: 60_000 }, () => {
  it('an app-server SIGKILL cannot end: the session is quarantined, no second app-server starts on the thread, Force stop ends it, the thread goes on', async () => {
    t = await startTestHost({
      codex: { retries: 0, bounds: { interruptMs: 400, killGraceMs: 200, killConfirmMs: 600 } },
    });
    const workspace = mkdtempSync(join(tmpdir(), 'cairn-codex-quarantine-'));
    const { connection } = await t.call('connection.create', {
      name: 'Codex',
      providerType: 'codex',
      baseUrl: server.baseUrl,
    });
    const { session } = await t.call('session.create', {
      connectionId: connection.connectionId,
      permissionMode: 'ask',
      workspacePath: workspace,
    });
    const { sessionId } = session;
    const base = server.modelCalls().length;
    server.enqueue(hangReply(['Working on it']));
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Take a long time' });
    await server.waitForModelCall(base);
    const [pid] = appServerPids(t.dataDir);
    if (pid === undefined) throw new Error('no app-server found for this host');
    frozen = await freezeProcess(pid);

    await t.call('turn.stop', { sessionId, turnId: 't1' });
    expect((await t.call('turn.query', { sessionId, turnId: 't1' })).turn.status).toBe('cancelled');
    // Announced as soon as the kill bound passes, before any next turn is tried.
    const announced = await waitFor(
      () =>
        t.events.find(
          (event) =>
            event.kind === 'codex.quarantine.changed' && event.sessionId === sessionId && event.quarantine !== null,
        ),
      {
        timeoutMs: 10_000,
        message: 'the quarantine announced',
      },
    );
    expect(announced).toMatchObject({
      quarantine: { sessionId, pid, message: expect.stringContaining('Force stop') as unknown },
    });
    expect((await t.call('codex.status', { sessionId })).quarantine).toMatchObject({ sessionId, pid });

    // Sent at once, while Cairn is still trying to end the old app-server: it waits for that, then refuses.
    await t.call('turn.start', { sessionId, turnId: 't2', text: 'And now?' });
    const refused = await turnEnds(sessionId, 't2');
    expect(refused.status).toBe('failed');
    expect(refused.latestRun.errorCode).toBe('codex_quarantined');
    expect(refused.latestRun.errorMessage).toContain(`pid ${pid}`);
    expect(appServerPids(t.dataDir)).toEqual([pid]);
    expect(processGone(pid)).toBe(false);

    // Force stop cannot confirm it either while the process is stuck, and says so.
    expect((await t.call('codex.forceStop', { sessionId })).stopped).toBe(false);
    expect(appServerPids(t.dataDir)).toEqual([pid]);

    // Unstuck, the kill lands: Force stop confirms it gone, and the thread goes on in a new app-server.
    await frozen.thaw();
    frozen = null;
    expect((await t.call('codex.forceStop', { sessionId })).stopped).toBe(true);
    expect((await t.call('codex.status', { sessionId })).quarantine).toBeNull();
    expect(
      t.events.filter((event) => event.kind === 'codex.quarantine.changed').map((event) => event.quarantine === null),
    ).toEqual([false, true]);
    server.enqueue(textReply('Back at it.'));
    await t.call('turn.resume', { sessionId, turnId: 't2' });
    const resumed = await waitFor(
      async () => {
        const { turn } = await t.call('turn.query', { sessionId, turnId: 't2' });
        return turn.status === 'completed' ||
          (turn.status === 'failed' && turn.latestRun.errorCode !== 'codex_quarantined')
          ? turn
          : null;
      },
      { timeoutMs: 20_000, message: 'the resumed turn to end' },
    );
    expect(resumed.status).toBe('completed');
    const pids = appServerPids(t.dataDir);
    expect(pids).toHaveLength(1);
    expect(pids).not.toContain(pid);
    const threadIds = server
      .modelCalls()
      .slice(base)
      .map((call) => call.headers['thread-id']);
    expect(threadIds).toHaveLength(2);
    expect(threadIds[0]).toMatch(/\S/);
    expect(new Set(threadIds).size).toBe(1);
  });

  it('quarantine outlives a restart: the next host finds the recorded app-server still there, refuses a second one on the thread, and Force stop ends it', async () => {
    const { dir, cleanup } = tempDataDir();
    const bounds = { interruptMs: 400, killGraceMs: 200, killConfirmMs: 600 };
    t = await startTestHost({ dataDir: dir, codex: { retries: 0, bounds } });
    const workspace = mkdtempSync(join(tmpdir(), 'cairn-codex-quarantine-'));
    const { connection } = await t.call('connection.create', {
      name: 'Codex',
      providerType: 'codex',
      baseUrl: server.baseUrl,
    });
    const { session } = await t.call('session.create', {
      connectionId: connection.connectionId,
      permissionMode: 'ask',
      workspacePath: workspace,
    });
    const { sessionId } = session;
    const base = server.modelCalls().length;
    server.enqueue(hangReply(['Working on it']));
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Take a long time' });
    await server.waitForModelCall(base);
    const [pid] = appServerPids(dir);
    if (pid === undefined) throw new Error('no app-server found for this host');
    frozen = await freezeProcess(pid);
    await t.close(); // its shutdown cannot end the frozen app-server

    t = await startTestHost({ dataDir: dir, codex: { retries: 0, bounds } });
    const status = await waitFor(async () => (await t.call('codex.status', { sessionId })).quarantine, {
      timeoutMs: 10_000,
      message: 'the quarantine after the restart',
    });
    expect(status).toMatchObject({ sessionId, pid });
    await t.call('turn.start', { sessionId, turnId: 't2', text: 'And now?' });
    const refused = await turnEnds(sessionId, 't2');
    expect(refused.latestRun.errorCode).toBe('codex_quarantined');
    expect(appServerPids(dir)).toEqual([pid]);

    await frozen.thaw();
    frozen = null;
    expect((await t.call('codex.forceStop', { sessionId })).stopped).toBe(true);
    expect((await t.call('codex.status', { sessionId })).quarantine).toBeNull();
    expect(processGone(pid)).toBe(true);
    cleanup();
  });
});
