import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../../../testing/host-fixture';
import { appServerPids } from '../../../testing/codex-processes';
import {
  lastUserText,
  startOpenAIResponsesServer,
  textReply,
  toolCallReply,
  type ProviderTestServer,
} from '../../../testing/provider-servers';
import { waitFor } from '../../../testing/wait-for';
import { processGone } from '../../shell/process-group';

/** Idle app-servers are stopped and the warm ones capped; the next turn resumes the same thread. Real app-server, scripted model. */

let server: ProviderTestServer;
let t: TestHost | null = null;

beforeAll(async () => {
  server = await startOpenAIResponsesServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  server.discardQueued();
  await t?.close();
  t = null;
});

async function host(codex: { idleMs?: number; maxWarm?: number }): Promise<TestHost> {
  t = await startTestHost({ codex: { retries: 0, ...codex } });
  const { connection } = await t.call('connection.create', {
    name: 'Codex',
    providerType: 'codex',
    baseUrl: server.baseUrl,
  });
  connectionId = connection.connectionId;
  return t;
}
let connectionId = '';

async function session(h: TestHost, permissionMode: 'ask' | 'full' = 'full'): Promise<string> {
  const workspace = mkdtempSync(join(tmpdir(), 'cairn-codex-warm-'));
  return (await h.call('session.create', { connectionId, permissionMode, workspacePath: workspace })).session.sessionId;
}

async function turn(h: TestHost, sessionId: string, turnId: string, text: string, reply: string): Promise<void> {
  server.enqueue(textReply(reply));
  await h.call('turn.start', { sessionId, turnId, text });
  const ended = await waitFor(
    async () => {
      const outcome = await h.invoke('turn.query', { sessionId, turnId });
      return outcome.ok && ['completed', 'failed', 'cancelled'].includes(outcome.result.turn.status)
        ? outcome.result.turn
        : null;
    },
    { timeoutMs: 30_000, message: `turn ${turnId} to end` },
  );
  expect(ended.status).toBe('completed');
}

/** The app-server a session's first turn started: the one that was not there before. */
async function firstTurn(h: TestHost, sessionId: string, text: string, reply: string): Promise<number> {
  const before = new Set(appServerPids(h.dataDir));
  await turn(h, sessionId, 't1', text, reply);
  const started = appServerPids(h.dataDir).filter((pid) => !before.has(pid));
  expect(started).toHaveLength(1);
  return started[0] ?? 0;
}

const gone = (pid: number, what: string) => waitFor(() => processGone(pid), { timeoutMs: 20_000, message: what });

describe('warm Codex app-servers', { timeout: 120_000 }, () => {
  it('an idle app-server is stopped after idleMs; the next turn resumes the same thread with its history', async () => {
    const h = await host({ idleMs: 1500 });
    const sessionId = await session(h);
    const base = server.modelCalls().length;
    const pid = await firstTurn(h, sessionId, 'Where do swifts sleep?', 'Swifts sleep on the wing.');
    await gone(pid, 'the idle app-server to be stopped');
    expect(appServerPids(h.dataDir)).toEqual([]);

    await turn(h, sessionId, 't2', 'And swallows?', 'Swallows roost in reeds.');
    const [first, second] = server.modelCalls().slice(base);
    expect(second?.headers['thread-id']).toBe(first?.headers['thread-id']);
    expect(JSON.stringify(second?.body)).toContain('Swifts sleep on the wing.');
    expect(lastUserText(second?.body)).toBe('And swallows?');
  });

  it('an app-server waiting for an approval is not stopped when idle, while another idle one is', async () => {
    const h = await host({ idleMs: 1500 });
    const waiting = await session(h, 'ask');
    const before = new Set(appServerPids(h.dataDir));
    server.enqueue(
      toolCallReply({
        id: 'call_w',
        name: 'exec_command',
        input: { cmd: 'echo hi > x.txt', sandbox_permissions: 'require_escalated', justification: 'Writes a file' },
      }),
    );
    await h.call('turn.start', { sessionId: waiting, turnId: 't1', text: 'Write x' });
    await waitFor(
      async () => (await h.call('interaction.list', { sessionId: waiting, status: 'pending' })).interactions[0],
      {
        message: 'a pending approval',
        timeoutMs: 30_000,
      },
    );
    const waitingPid = appServerPids(h.dataDir).find((pid) => !before.has(pid)) ?? 0;
    // A session whose app-server goes idle after the approval came: its stop shows the idle time has passed.
    const idle = await session(h);
    const idlePid = await firstTurn(h, idle, 'Say hi', 'Hi.');
    await gone(idlePid, 'the idle app-server to be stopped');
    expect(processGone(waitingPid)).toBe(false);
    expect(appServerPids(h.dataDir)).toEqual([waitingPid]);
  });

  it('an app-server with a command still running is not stopped when idle; once the command ends, it is', async () => {
    const h = await host({ idleMs: 1500 });
    const workspace = mkdtempSync(join(tmpdir(), 'cairn-codex-warm-'));
    const busy = (await h.call('session.create', { connectionId, permissionMode: 'full', workspacePath: workspace }))
      .session.sessionId;
    const before = new Set(appServerPids(h.dataDir));
    // Codex yields the command after half a second and ends the turn while it runs.
    server.enqueue(
      toolCallReply({
        id: 'call_bg',
        name: 'exec_command',
        input: { cmd: 'while [ ! -f go ]; do sleep 0.1; done; echo done', yield_time_ms: 500 },
      }),
      textReply('It runs in the background.'),
    );
    await h.call('turn.start', { sessionId: busy, turnId: 't1', text: 'Start it in the background' });
    const run = await waitFor(
      async () => {
        const { turn } = await h.call('turn.query', { sessionId: busy, turnId: 't1' });
        if (turn.status !== 'completed') return null;
        return (await h.call('shell.list', { sessionId: busy })).shellRuns.find(
          (shellRun) => shellRun.status === 'running',
        );
      },
      { message: 'the turn to end with its command running', timeoutMs: 30_000 },
    );
    const busyPid = appServerPids(h.dataDir).find((pid) => !before.has(pid)) ?? 0;
    const idle = await session(h);
    const idlePid = await firstTurn(h, idle, 'Say hi', 'Hi.');
    await gone(idlePid, 'the idle app-server to be stopped');
    expect(processGone(busyPid)).toBe(false);
    expect((await h.call('shell.get', { shellRunId: run.shellRunId })).shellRun.status).toBe('running');

    writeFileSync(join(workspace, 'go'), '');
    await gone(busyPid, 'the app-server to be stopped once its command ended');
    expect((await h.call('shell.get', { shellRunId: run.shellRunId })).shellRun).toMatchObject({
      status: 'exited',
      exitCode: 0,
    });
  });

  it('with maxWarm 2, a third session stops the least recently used idle app-server; it resumes its thread on its next turn', async () => {
    const h = await host({ maxWarm: 2 });
    const [a, b, c] = [await session(h), await session(h), await session(h)];
    const base = server.modelCalls().length;
    const pidA = await firstTurn(h, a, 'A: name a heron', 'Grey heron.');
    const pidB = await firstTurn(h, b, 'B: name a gull', 'Herring gull.');
    await turn(h, a, 't2', 'A: another heron', 'Purple heron.'); // A is now used more recently than B
    const pidC = await firstTurn(h, c, 'C: name a tern', 'Arctic tern.');
    await gone(pidB, "B's app-server, the least recently used, to be stopped");
    expect(appServerPids(h.dataDir).sort()).toEqual([pidA, pidC].sort());

    const threadOfB = server.modelCalls()[base + 1]?.headers['thread-id'];
    await turn(h, b, 't2', 'B: another gull', 'Black-headed gull.');
    expect(server.modelCalls().at(-1)?.headers['thread-id']).toBe(threadOfB);
    expect(JSON.stringify(server.modelCalls().at(-1)?.body)).toContain('Herring gull.');
    // B's came back, so the least recently used of the others (A) made room.
    await gone(pidA, "A's app-server to make room for B's");
    expect(appServerPids(h.dataDir)).toHaveLength(2);
  });
});
