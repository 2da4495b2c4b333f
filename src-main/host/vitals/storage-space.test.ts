import { afterEach, describe, expect, it } from 'vitest';
import type { ChangeEvent } from '../../../src-shared/events';
import { EventBus } from '../../runtime/ports/event-bus';
import { silentLogger } from '../../runtime/ports/ports';
import { AdmissionGate } from '../../runtime/lifecycle/admission-gate';
import type { VacuumOutcome } from '../../storage/database-vacuum';
import { openStores, type Stores } from '../../storage/stores';
import { startTestHost, useTempDirs, type TestHost } from '../../testing/host-fixture';
import { waitFor } from '../../testing/wait-for';
import { COMPACTING_MESSAGE, createStorageSpace } from './storage-space';

const tempDir = useTempDirs();
let host: TestHost | null = null;
let stores: Stores | null = null;
afterEach(async () => {
  await host?.close();
  stores?.close();
  host = null;
  stores = null;
});

describe('Settings → Storage on a real host', () => {
  it('reports the data directory’s parts and compacts the database, ending with an empty write-ahead log', async () => {
    host = await startTestHost();
    const t = host;
    for (let index = 0; index < 3; index += 1) {
      const sessionId = (await t.call('session.create', {})).session.sessionId;
      await t.call('turn.start', { sessionId, turnId: `t${index}`, text: 'hello there '.repeat(200) });
      await t.waitForTurn(sessionId, `t${index}`, ['completed']);
      if (index > 0) await t.call('session.remove', { sessionId });
    }
    const before = await t.call('storage.usage', {});
    expect(before.databaseBytes).toBeGreaterThan(0);
    expect(before.walBytes).toBeGreaterThan(0);
    expect(before).toMatchObject({ turnRunning: false, reclaim: null, lastReclaim: null });

    const started = await t.call('storage.reclaim', {});
    expect(started.reclaim.expectedBytes).toBeGreaterThan(0);
    await waitFor(() => t.events.some((event) => event.kind === 'storage.changed'));
    await waitFor(async () => (await t.call('storage.usage', {})).lastReclaim !== null);
    const after = await t.call('storage.usage', {});
    expect(after.reclaim).toBeNull();
    expect(after.lastReclaim).toMatchObject({ ok: true, message: null });
    expect(after.walBytes).toBe(0);
    expect(after.databaseBytes + after.walBytes).toBeLessThan(before.databaseBytes + before.walBytes);

    // Work starts again afterwards.
    const sessionId = (await t.call('session.create', {})).session.sessionId;
    await t.call('turn.start', { sessionId, turnId: 'after', text: 'hi' });
    await t.waitForTurn(sessionId, 'after', ['completed']);
  });
});

describe('Reclaim space and turns', () => {
  function setUp(running: boolean) {
    const dataDir = tempDir();
    stores = openStores(dataDir);
    const admission = new AdmissionGate();
    const bus = new EventBus('epoch', silentLogger);
    const events: ChangeEvent[] = [];
    bus.subscribe((event) => events.push(event));
    let finish: (outcome: VacuumOutcome) => void = () => {};
    const vacuum = () => new Promise<VacuumOutcome>((resolve) => (finish = resolve));
    const turns = { runningRuns: () => (running ? [{ sessionId: 's', turnId: 't', runId: 'r' }] : []) };
    const space = createStorageSpace({
      dataDir,
      stores: { turns: turns as unknown as Stores['turns'], offloadUses: stores.offloadUses },
      admission,
      bus,
      now: () => 1,
      vacuum,
    });
    return { space, admission, events, finish: (outcome: VacuumOutcome) => finish(outcome) };
  }

  it('is refused with a clear message while a turn runs, and nothing is held back', () => {
    const { space, admission } = setUp(true);
    const refused = space.reclaim();
    expect(refused).toMatchObject({ ok: false, error: { code: 'session_busy' } });
    expect(!refused.ok && refused.error.message).toMatch(/Reclaim space waits for an idle moment/);
    expect(admission.refusal()).toBeNull();
  });

  it('refuses a turn that starts while it runs, saying why, and admits turns again when it ends (also when it failed)', async () => {
    const { space, admission, finish, events } = setUp(false);
    expect(space.reclaim().ok).toBe(true);
    expect(admission.refusal()).toEqual({ ok: false, error: { code: 'session_busy', message: COMPACTING_MESSAGE } });
    expect((await space.usage()).reclaim).not.toBeNull();
    // A second press while it runs answers the same progress.
    expect(space.reclaim().ok).toBe(true);
    finish({ ok: false, message: 'database is locked' });
    await space.idle();
    expect(admission.refusal()).toBeNull();
    const usage = await space.usage();
    expect(usage.reclaim).toBeNull();
    expect(usage.lastReclaim).toMatchObject({ ok: false, freedBytes: 0 });
    expect(usage.lastReclaim?.message).toMatch(/could not be compacted \(database is locked\); nothing was lost/);
    expect(events.filter((event) => event.kind === 'storage.changed').length).toBeGreaterThanOrEqual(2);
  });
});
