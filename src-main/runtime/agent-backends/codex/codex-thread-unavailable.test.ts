import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../storage/database';
import { startTestHost, tempDataDir, type TestHost } from '../../../testing/host-fixture';
import { appServerPids } from '../../../testing/codex-processes';
import {
  lastUserText,
  startOpenAIResponsesServer,
  textReply,
  type ProviderTestServer,
} from '../../../testing/provider-servers';
import { waitFor } from '../../../testing/wait-for';
import { processGone } from '../../shell/process-group';
import { findCodexBinary } from '../../connections/codex-binary';

/** A Codex thread that cannot be resumed never changes silently: the real app-server, a scripted model. */

let server: ProviderTestServer;
let t: TestHost | null = null;
const cleanups: Array<() => void> = [];

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
  for (const cleanup of cleanups.splice(0)) cleanup();
});

async function host(dataDir: string): Promise<TestHost> {
  t = await startTestHost({ dataDir, codex: { retries: 0, bounds: { requestMs: 8000 } } });
  return t;
}

async function codexSession(h: TestHost, name: string, codexBinary?: string) {
  const workspace = mkdtempSync(join(tmpdir(), `cairn-codex-${name}-`));
  const connections = (await h.call('connection.list', {})).connections.filter((c) => c.providerType === 'codex');
  const connectionId =
    connections[0]?.connectionId ??
    (
      await h.call('connection.create', {
        name: 'Codex',
        providerType: 'codex',
        baseUrl: server.baseUrl,
        ...(codexBinary === undefined ? {} : { codexBinary }),
      })
    ).connection.connectionId;
  return (await h.call('session.create', { connectionId, permissionMode: 'ask', workspacePath: workspace })).session
    .sessionId;
}

async function turnEnds(h: TestHost, sessionId: string, turnId: string) {
  return waitFor(
    async () => {
      const outcome = await h.invoke('turn.query', { sessionId, turnId });
      return outcome.ok && ['completed', 'failed', 'cancelled'].includes(outcome.result.turn.status)
        ? outcome.result.turn
        : null;
    },
    { timeoutMs: 30_000, message: `turn ${turnId} to end` },
  );
}

/** Ends the session's warm app-server so the next turn must resume the thread in a new one. */
async function endAppServers(dataDir: string): Promise<void> {
  const pids = appServerPids(dataDir);
  for (const pid of pids) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      process.kill(pid, 'SIGKILL'); // a codex behind a relay runs in the relay's group
    }
  }
  await waitFor(() => pids.every((pid) => processGone(pid)), { message: 'the app-servers to exit', timeoutMs: 10_000 });
}

/**
 * The real codex behind a relay of its stdin that, once armed, kills it (and exits) when Cairn sends
 * `turn/start`: an app-server that dies right after a thread started, before any turn did.
 */
function crashingCodex(): { binary: string; arm(): void; armed(): boolean; cleanup(): void } {
  const real = findCodexBinary(null);
  if (real === null) throw new Error('the bundled codex binary is missing');
  const folder = mkdtempSync(join(tmpdir(), 'cairn-codex-crash-'));
  const marker = join(folder, 'armed');
  const binary = join(folder, 'codex');
  const relay = `
const { spawn } = require('node:child_process');
const { existsSync, rmSync } = require('node:fs');
const child = spawn(${JSON.stringify(real.path)}, process.argv.slice(2), { stdio: ['pipe', 'inherit', 'inherit'] });
child.on('exit', (code, signal) => process.exit(code ?? (signal === null ? 1 : 137)));
let pending = '';
process.stdin.on('data', (chunk) => {
  pending += chunk.toString('utf8');
  let newline;
  while ((newline = pending.indexOf('\\n')) >= 0) {
    const line = pending.slice(0, newline + 1);
    pending = pending.slice(newline + 1);
    if (line.includes('"turn/start"') && existsSync(${JSON.stringify(marker)})) {
      rmSync(${JSON.stringify(marker)});
      child.kill('SIGKILL');
      process.exit(137);
    }
    child.stdin.write(line);
  }
});
process.stdin.on('end', () => child.stdin.end());
`;
  writeFileSync(binary, `#!${process.execPath}\n${relay}`, { mode: 0o755 });
  return {
    binary,
    arm: () => writeFileSync(marker, ''),
    armed: () => existsSync(marker),
    cleanup: () => rmSync(folder, { recursive: true, force: true }),
  };
}

function rolloutOf(dataDir: string, threadId: string): string {
  const root = join(dataDir, 'codex', 'home', 'sessions');
  const found = (readdirSync(root, { recursive: true }) as string[]).find(
    (path) => path.includes(threadId) && path.endsWith('.jsonl'),
  );
  if (found === undefined) throw new Error(`no rollout file for thread ${threadId}`);
  return join(root, found);
}

const threadIdsSince = (base: number) =>
  server
    .modelCalls()
    .slice(base)
    .map((call) => call.headers['thread-id']);

describe('a Codex thread that cannot be resumed', { timeout: 120_000 }, () => {
  it('deleted rollout: the turn fails thread_unavailable naming it, no new thread starts; "Start a new Codex thread" sends the summary once, marked in the transcript, visible after reload', async () => {
    const { dir, cleanup } = tempDataDir();
    cleanups.push(cleanup);
    const h = await host(dir);
    const sessionId = await codexSession(h, 'deleted');
    const base = server.modelCalls().length;
    server.enqueue(textReply('The heron nests by the weir.'));
    await h.call('turn.start', { sessionId, turnId: 't1', text: 'Where does the heron nest?' });
    expect((await turnEnds(h, sessionId, 't1')).status).toBe('completed');
    const [oldThread] = threadIdsSince(base);
    if (oldThread === undefined) throw new Error('no thread id header');
    await endAppServers(dir);
    rmSync(rolloutOf(dir, oldThread));

    await h.call('turn.start', { sessionId, turnId: 't2', text: 'And the kestrel?' });
    const failed = await turnEnds(h, sessionId, 't2');
    expect(failed.status).toBe('failed');
    expect(failed.latestRun.errorCode).toBe('thread_unavailable');
    expect(failed.latestRun.errorMessage).toContain(oldThread);
    expect(server.modelCalls().length).toBe(base + 1); // no turn ran on a new thread
    const status = await h.call('codex.status', { sessionId });
    expect(status.threadProblem).toMatchObject({ sessionId, threadId: oldThread, turnId: 't2', choice: null });

    // A choice naming another thread is refused before anything changes.
    const wrong = await h.invoke('codex.chooseThread', {
      sessionId,
      threadId: 'thread-of-nobody',
      choice: 'new_thread',
    });
    expect(wrong.ok ? 'accepted' : wrong.error.code).toBe('operation_conflict');

    server.enqueue(textReply('The kestrel hovers over the verge.'));
    const chosen = await h.call('codex.chooseThread', { sessionId, threadId: oldThread, choice: 'new_thread' });
    expect(chosen.threadProblem).toMatchObject({ choice: 'new_thread' });
    // Asked twice (a double click, a retry after a lost answer): one new thread, one run.
    await h.call('codex.chooseThread', { sessionId, threadId: oldThread, choice: 'new_thread' });
    expect((await turnEnds(h, sessionId, 't2')).status).toBe('completed');
    const calls = server.modelCalls().slice(base + 1);
    expect(calls).toHaveLength(1);
    const newThread = calls[0]?.headers['thread-id'];
    expect(newThread).toMatch(/\S/);
    expect(newThread).not.toBe(oldThread);
    const first = lastUserText(calls[0]?.body);
    expect(first).toContain('earlier turns');
    expect(first).toContain('Where does the heron nest?');
    expect(first).toContain('The heron nests by the weir.');
    expect(first).toContain('And the kestrel?');
    const items = (await h.call('transcript.page', { sessionId, limit: 100 })).items;
    expect(items.filter((item) => item.text === 'New Codex thread — earlier turns summarised')).toHaveLength(1);

    // After a reload (a new host on the same data), the choice is still there and nothing runs again.
    await h.close();
    t = null;
    const again = await host(dir);
    expect((await again.call('codex.status', { sessionId })).threadProblem).toMatchObject({
      threadId: oldThread,
      choice: 'new_thread',
      resolved: true,
    });
    server.enqueue(textReply('Still on the new thread.'));
    await again.call('turn.start', { sessionId, turnId: 't3', text: 'Anything else?' });
    expect((await turnEnds(again, sessionId, 't3')).status).toBe('completed');
    expect(server.modelCalls().at(-1)?.headers['thread-id']).toBe(newThread);
  });

  it('"Start a new Codex thread" whose turn/start fails (the app-server dies): the next attempt, even after a restart, still sends the summary, once', async () => {
    const { dir, cleanup } = tempDataDir();
    cleanups.push(cleanup);
    const crash = crashingCodex();
    cleanups.push(crash.cleanup);
    const h = await host(dir);
    const sessionId = await codexSession(h, 'summary-retry', crash.binary);
    const base = server.modelCalls().length;
    server.enqueue(textReply('The otter fishes at dusk.'));
    await h.call('turn.start', { sessionId, turnId: 't1', text: 'When does the otter fish?' });
    expect((await turnEnds(h, sessionId, 't1')).status).toBe('completed');
    const [oldThread] = threadIdsSince(base);
    if (oldThread === undefined) throw new Error('no thread id header');
    await endAppServers(dir);
    rmSync(rolloutOf(dir, oldThread));
    await h.call('turn.start', { sessionId, turnId: 't2', text: 'And the badger?' });
    expect((await turnEnds(h, sessionId, 't2')).latestRun.errorCode).toBe('thread_unavailable');

    // The new thread starts, then its app-server dies as Cairn sends turn/start.
    crash.arm();
    await h.call('codex.chooseThread', { sessionId, threadId: oldThread, choice: 'new_thread' });
    const failed = await turnEnds(h, sessionId, 't2');
    expect(failed.status).toBe('failed');
    expect(failed.latestRun.errorCode).not.toBe('thread_unavailable');
    expect(crash.armed()).toBe(false); // it did die at turn/start
    expect(server.modelCalls().length).toBe(base + 1);

    // The next attempt comes after a restart: the summary is still owed to the new thread.
    await h.close();
    t = null;
    const again = await host(dir);
    server.enqueue(textReply('The badger digs a sett.'));
    await again.call('turn.resume', { sessionId, turnId: 't2' });
    expect((await turnEnds(again, sessionId, 't2')).latestRun).toMatchObject({
      status: 'completed',
      errorCode: null,
      errorMessage: null,
    });
    const calls = server.modelCalls().slice(base + 1);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.headers['thread-id']).not.toBe(oldThread);
    const first = lastUserText(calls[0]?.body);
    expect(first).toContain('earlier turns');
    expect(first).toContain('When does the otter fish?');
    expect(first).toContain('The otter fishes at dusk.');
    expect(first).toContain('And the badger?');
    const items = (await again.call('transcript.page', { sessionId, limit: 100 })).items;
    expect(items.filter((item) => item.text === 'New Codex thread — earlier turns summarised')).toHaveLength(1);

    // Delivered: the turn after is not given it again.
    server.enqueue(textReply('Both sleep by day.'));
    await again.call('turn.start', { sessionId, turnId: 't3', text: 'When do they sleep?' });
    expect((await turnEnds(again, sessionId, 't3')).status).toBe('completed');
    expect(lastUserText(server.modelCalls().at(-1)?.body)).toBe('When do they sleep?');
  });

  it("a goal turn on a new thread that still owes the summary is started by Cairn with it, not as Codex's own continuation", async () => {
    const { dir, cleanup } = tempDataDir();
    cleanups.push(cleanup);
    const crash = crashingCodex();
    cleanups.push(crash.cleanup);
    const h = await host(dir);
    const sessionId = await codexSession(h, 'summary-goal', crash.binary);
    const base = server.modelCalls().length;
    server.enqueue(textReply('The egrets roost in the alders.'));
    await h.call('turn.start', { sessionId, turnId: 't1', text: 'Where do the egrets roost?' });
    expect((await turnEnds(h, sessionId, 't1')).status).toBe('completed');
    const [oldThread] = threadIdsSince(base);
    if (oldThread === undefined) throw new Error('no thread id header');
    await endAppServers(dir);
    rmSync(rolloutOf(dir, oldThread));
    await h.call('turn.start', { sessionId, turnId: 't2', text: 'How many are there?' });
    expect((await turnEnds(h, sessionId, 't2')).latestRun.errorCode).toBe('thread_unavailable');
    // The new thread starts and dies at its first turn/start: it still owes the summary.
    crash.arm();
    await h.call('codex.chooseThread', { sessionId, threadId: oldThread, choice: 'new_thread' });
    expect((await turnEnds(h, sessionId, 't2')).status).toBe('failed');
    expect(crash.armed()).toBe(false);

    // The next turn is a goal turn: it must carry the summary too.
    server.enqueue(textReply('Counting the egrets in the alders.'));
    await h.call('goal.arm', { sessionId, objective: 'Count the egrets', tokenBudget: null, maxIterations: 1 });
    await server.waitForModelCall(base + 1);
    const call = server.modelCalls()[base + 1];
    expect(call?.headers['thread-id']).not.toBe(oldThread);
    const said = lastUserText(call?.body);
    expect(said).toContain('earlier turns');
    expect(said).toContain('Where do the egrets roost?');
    expect(said).toContain('The egrets roost in the alders.');
    await waitFor(async () => (await h.call('goal.get', { sessionId })).goal?.status === 'iterationLimited', {
      message: 'the goal turn to end',
      timeoutMs: 30_000,
    });
    const items = (await h.call('transcript.page', { sessionId, limit: 100 })).items;
    expect(items.filter((item) => item.text === 'New Codex thread — earlier turns summarised')).toHaveLength(1);
  });

  it('damaged rollout: thread_unavailable; "Keep waiting / retry" tries the same thread again, and once it is readable the turn runs on it', async () => {
    const { dir, cleanup } = tempDataDir();
    cleanups.push(cleanup);
    const h = await host(dir);
    const sessionId = await codexSession(h, 'damaged');
    const base = server.modelCalls().length;
    server.enqueue(textReply('Egrets are white.'));
    await h.call('turn.start', { sessionId, turnId: 't1', text: 'What colour are egrets?' });
    expect((await turnEnds(h, sessionId, 't1')).status).toBe('completed');
    const [thread] = threadIdsSince(base);
    if (thread === undefined) throw new Error('no thread id header');
    await endAppServers(dir);
    const rollout = rolloutOf(dir, thread);
    const { readFileSync } = await import('node:fs');
    const original = readFileSync(rollout);
    writeFileSync(rollout, 'this is not a rollout\n');

    await h.call('turn.start', { sessionId, turnId: 't2', text: 'And their legs?' });
    const failed = await turnEnds(h, sessionId, 't2');
    expect(failed.latestRun.errorCode).toBe('thread_unavailable');
    expect(server.modelCalls().length).toBe(base + 1);

    // Retry while it is still damaged: still refused, still the same thread, the choice recorded.
    await h.call('codex.chooseThread', { sessionId, threadId: thread, choice: 'retry' });
    const retried = await waitFor(
      async () => {
        const { turn } = await h.call('turn.query', { sessionId, turnId: 't2' });
        return turn.status === 'failed' && turn.latestRun.runId !== failed.latestRun.runId ? turn : null;
      },
      { timeoutMs: 30_000, message: 'the retry to fail again' },
    );
    expect(retried.latestRun.errorCode).toBe('thread_unavailable');
    expect(server.modelCalls().length).toBe(base + 1);

    writeFileSync(rollout, original);
    server.enqueue(textReply('Black legs, yellow feet.'));
    await h.call('codex.chooseThread', { sessionId, threadId: thread, choice: 'retry' });
    expect((await turnEnds(h, sessionId, 't2')).status).toBe('completed');
    expect(server.modelCalls().at(-1)?.headers['thread-id']).toBe(thread);
    expect(JSON.stringify(server.modelCalls().at(-1)?.body)).toContain('What colour are egrets?');
    expect((await h.call('codex.status', { sessionId })).threadProblem).toBeNull();
  });

  it("a resume point naming another session's thread is refused before anything runs on it", async () => {
    const { dir, cleanup } = tempDataDir();
    cleanups.push(cleanup);
    const h = await host(dir);
    const a = await codexSession(h, 'owner-a');
    const b = await codexSession(h, 'owner-b');
    const base = server.modelCalls().length;
    server.enqueue(textReply('A speaks.'), textReply('B speaks.'));
    await h.call('turn.start', { sessionId: a, turnId: 'ta', text: 'Secret of session A' });
    expect((await turnEnds(h, a, 'ta')).status).toBe('completed');
    await h.call('turn.start', { sessionId: b, turnId: 'tb', text: 'Hello from B' });
    expect((await turnEnds(h, b, 'tb')).status).toBe('completed');
    const [threadA] = threadIdsSince(base);
    await h.close();
    t = null;
    // The record goes wrong (a bad restore, a bug): B's resume point now names A's thread.
    const db = openDatabase(dir);
    db.prepare('UPDATE codex_checkpoints SET thread_id = ? WHERE session_id = ?').run(threadA, b);
    db.close();

    const again = await host(dir);
    const calls = server.modelCalls().length;
    await again.call('turn.start', { sessionId: b, turnId: 'tb2', text: 'What did A say?' });
    const refused = await turnEnds(again, b, 'tb2');
    expect(refused.latestRun.errorCode).toBe('thread_unavailable');
    expect(refused.latestRun.errorMessage).toContain('another session');
    expect(server.modelCalls().length).toBe(calls);
    expect(appServerPids(dir)).toEqual([]); // refused before an app-server started
  });
});
