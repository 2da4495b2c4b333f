import { afterEach, describe, expect, it } from 'vitest';
import { tempDataDir } from './testing/host-fixture';
import type { ProtocolClient } from './testing/protocol-client';
import { SERVE_PROCESS_TESTS } from './testing/serve-process';
import { serveWithClient } from './testing/serve-with-client';
import { waitFor } from './testing/wait-for';

/** Automations against the real headless host: real time, a real child process, real SIGKILL. */
const TOKEN = 'automations-serve-token';
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const serve = (dataDir: string) => serveWithClient(dataDir, TOKEN, cleanups);

function freshDir(): string {
  const temp = tempDataDir();
  cleanups.push(temp.cleanup);
  return temp.dir;
}

/** A `once` task in a new session, due `inMs` from now (UTC wall clock, to the second). */
async function onceTask(client: ProtocolClient, inMs: number): Promise<{ sessionId: string; slotAt: number }> {
  const slotAt = Math.ceil((Date.now() + inMs) / 1000) * 1000;
  const { session } = await client.call('session.create', {});
  await client.call('schedule.create', {
    taskId: 'soon',
    title: 'Soon',
    prompt: 'hello from the schedule',
    target: { kind: 'session', sessionId: session.sessionId },
    schedule: { kind: 'once', at: new Date(slotAt).toISOString().slice(0, 19) },
    timeZone: 'UTC',
    effect: 'turn',
  });
  return { sessionId: session.sessionId, slotAt };
}

const turnsOf = async (client: ProtocolClient, sessionId: string) =>
  (await client.call('transcript.page', { sessionId, limit: 100 })).turns;

async function finishedFiring(client: ProtocolClient) {
  return waitFor(
    async () => {
      const { firings } = await client.call('schedule.history', { taskId: 'soon' });
      return firings.length > 0 && firings[0]!.turnStatus !== null && firings[0]!.turnStatus !== 'running'
        ? firings
        : null;
    },
    { timeoutMs: 15_000, message: 'the firing to run its turn' },
  );
}

describe('automations in the headless host', SERVE_PROCESS_TESTS, () => {
  it('a task due in about 2 s fires once', async () => {
    const { client } = await serve(freshDir());
    const { sessionId } = await onceTask(client, 2000);
    const firings = await finishedFiring(client);
    expect(firings).toHaveLength(1);
    expect(firings[0]).toMatchObject({ status: 'started', turnStatus: 'completed', catchUp: false });
    expect((await client.call('schedule.get', { taskId: 'soon' })).task.nextRunAt).toBeNull();
    expect(await turnsOf(client, sessionId)).toHaveLength(1);
  });

  it('SIGKILL around the slot, then a restart: exactly one firing', async () => {
    const dataDir = freshDir();
    const first = await serve(dataDir);
    const { sessionId, slotAt } = await onceTask(first.client, 2000);
    await waitFor(() => Date.now() >= slotAt - 50, { timeoutMs: 10_000, message: 'the slot time' });
    first.server.child.kill('SIGKILL');
    await first.server.exited;
    const { client } = await serve(dataDir);
    const firings = await finishedFiring(client);
    expect(firings).toHaveLength(1);
    const turns = await turnsOf(client, sessionId);
    expect(turns.map((turn) => turn.turnId)).toEqual([firings[0]!.firingId]);
  });

  it('a slot missed while stopped runs once, as a catch-up, on start', async () => {
    const dataDir = freshDir();
    const first = await serve(dataDir);
    const { sessionId, slotAt } = await onceTask(first.client, 1500);
    await first.client.close();
    first.server.child.kill('SIGTERM');
    await first.server.exited;
    await waitFor(() => Date.now() > slotAt + 200, { timeoutMs: 10_000, message: 'the slot to pass' });
    const { client } = await serve(dataDir);
    const firings = await finishedFiring(client);
    expect(firings).toMatchObject([{ status: 'started', catchUp: true, turnStatus: 'completed' }]);
    expect(await turnsOf(client, sessionId)).toHaveLength(1);
  });
});
