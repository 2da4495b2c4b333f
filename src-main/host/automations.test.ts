import { afterEach, describe, expect, it } from 'vitest';
import type { ScheduleSpec } from '../../src-shared/automation-model';
import { ManualClock } from '../testing/manual-clock';
import { startTestHost, useTempDirs, type TestHost } from '../testing/host-fixture';
import { withRawDatabase } from '../storage/testing/raw-database';

const START = Date.parse('2026-12-01T08:00:00Z');
const MINUTE = 60_000;
const dir = useTempDirs();
const hosts: TestHost[] = [];
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close().catch(() => {});
});

async function open(clock: ManualClock, dataDir: string, afterRecord?: (firingId: string) => void): Promise<TestHost> {
  const host = await startTestHost({
    dataDir,
    clock: clock.forHost(),
    automations: { timer: clock, ...(afterRecord === undefined ? {} : { afterRecord }) },
  });
  hosts.push(host);
  return host;
}

async function sessionIn(t: TestHost): Promise<string> {
  return (await t.call('session.create', {})).session.sessionId;
}

const daily = (time: string): ScheduleSpec & { kind: 'daily' } => ({
  kind: 'daily',
  time,
  weekdays: [0, 1, 2, 3, 4, 5, 6],
});

async function createTask(
  t: TestHost,
  sessionId: string,
  schedule: ScheduleSpec,
  extra: { catchUpMinutes?: number } = {},
) {
  return (
    await t.call('schedule.create', {
      taskId: 'task-1',
      title: 'Summarise',
      prompt: 'Summarise the new issues',
      target: { kind: 'session', sessionId },
      schedule,
      timeZone: 'UTC',
      effect: 'turn',
      ...extra,
    })
  ).task;
}

const turnsOf = async (t: TestHost, sessionId: string) =>
  (await t.call('transcript.page', { sessionId, limit: 500 })).turns;

describe('scheduled tasks', () => {
  it('fires a daily task once at its slot, and next at the following day', async () => {
    const clock = new ManualClock(START);
    const t = await open(clock, dir());
    const sessionId = await sessionIn(t);
    const task = await createTask(t, sessionId, daily('09:00'));
    expect(task.nextRunAt).toBe(Date.parse('2026-12-01T09:00:00Z'));
    clock.set(Date.parse('2026-12-01T09:00:00Z'));
    const firingId = `task-1:${Date.parse('2026-12-01T09:00:00Z')}`;
    await t.waitForTurn(sessionId, firingId, ['completed']);
    clock.advance(10 * MINUTE);
    expect((await turnsOf(t, sessionId)).map((turn) => turn.turnId)).toEqual([firingId]);
    const { firings } = await t.call('schedule.history', { taskId: 'task-1' });
    expect(firings).toMatchObject([{ firingId, status: 'started', catchUp: false, turnStatus: 'completed' }]);
    expect((await t.call('schedule.get', { taskId: 'task-1' })).task.nextRunAt).toBe(
      Date.parse('2026-12-02T09:00:00Z'),
    );
    expect(t.events.some((event) => event.kind === 'host.notice' && event.code === 'automation_finished')).toBe(true);
  });

  it('refuses a bad cron, a past once and an unknown session with the reason, writing nothing', async () => {
    const clock = new ManualClock(START);
    const t = await open(clock, dir());
    const sessionId = await sessionIn(t);
    const base = { taskId: 'bad', title: 'x', prompt: 'y', timeZone: 'UTC', effect: 'turn' } as const;
    const cron = await t.invoke('schedule.create', {
      ...base,
      target: { kind: 'session', sessionId },
      schedule: { kind: 'cron', expression: '99 * * * *' },
    });
    expect(cron).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringMatching(/cron/) } });
    const past = await t.invoke('schedule.create', {
      ...base,
      target: { kind: 'session', sessionId },
      schedule: { kind: 'once', at: '2026-11-30T09:00' },
    });
    expect(past).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringMatching(/passed/) },
    });
    const unknown = await t.invoke('schedule.create', {
      ...base,
      target: { kind: 'session', sessionId: 'nope' },
      schedule: daily('09:00'),
    });
    expect(unknown).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringMatching(/session does not exist/) },
    });
    expect((await t.call('schedule.list', {})).tasks).toEqual([]);
  });

  it('answers a stale update with revision_conflict and keeps the task', async () => {
    const clock = new ManualClock(START);
    const t = await open(clock, dir());
    const sessionId = await sessionIn(t);
    const task = await createTask(t, sessionId, daily('09:00'));
    const input = {
      taskId: 'task-1',
      title: 'Renamed',
      prompt: 'p',
      target: task.target,
      schedule: daily('10:00'),
      timeZone: 'UTC',
      effect: 'turn',
    } as const;
    const updated = await t.call('schedule.update', { ...input, expectedRevision: task.revision });
    expect(updated.task).toMatchObject({
      title: 'Renamed',
      revision: task.revision + 1,
      nextRunAt: Date.parse('2026-12-01T10:00:00Z'),
    });
    const stale = await t.invoke('schedule.update', { ...input, title: 'Lost', expectedRevision: task.revision });
    expect(stale).toMatchObject({ ok: false, error: { code: 'revision_conflict' } });
    expect((await t.call('schedule.get', { taskId: 'task-1' })).task.title).toBe('Renamed');
  });

  it('runs one catch-up for slots missed while stopped within the window, collapsing them', async () => {
    const clock = new ManualClock(START);
    const dataDir = dir();
    const first = await open(clock, dataDir);
    const sessionId = await sessionIn(first);
    await createTask(first, sessionId, { kind: 'every', minutes: 10 });
    await first.close();
    clock.advance(45 * MINUTE); // slots at +10, +20, +30, +40 pass while Cairn is stopped
    const t = await open(clock, dataDir);
    const { firings } = await t.call('schedule.history', { taskId: 'task-1' });
    expect(firings).toMatchObject([
      { slotAt: START + 40 * MINUTE, status: 'started', catchUp: true, collapsedSlots: 3 },
    ]);
    await t.waitForTurn(sessionId, firings[0]!.firingId, ['completed']);
    expect(await turnsOf(t, sessionId)).toHaveLength(1);
  });

  it('records a slot missed beyond the catch-up window as missed, without a turn', async () => {
    const clock = new ManualClock(START);
    const dataDir = dir();
    const first = await open(clock, dataDir);
    const sessionId = await sessionIn(first);
    await createTask(first, sessionId, daily('09:00'), { catchUpMinutes: 30 });
    await first.close();
    clock.set(Date.parse('2026-12-01T10:00:00Z'));
    const t = await open(clock, dataDir);
    const { firings } = await t.call('schedule.history', { taskId: 'task-1' });
    expect(firings).toMatchObject([
      { status: 'missed', reason: expect.stringMatching(/not running/), turnStatus: null },
    ]);
    expect(await turnsOf(t, sessionId)).toEqual([]);
  });

  it('queues a firing behind a busy session as a follow-up instead of interrupting it', async () => {
    const clock = new ManualClock(START);
    const t = await open(clock, dir());
    const sessionId = await sessionIn(t);
    await createTask(t, sessionId, daily('09:00'));
    await t.call('turn.start', { sessionId, turnId: 'mine', text: '/ask' });
    await t.waitForTurn(sessionId, 'mine', ['waiting']);
    clock.set(Date.parse('2026-12-01T09:00:00Z'));
    const { firings } = await t.call('schedule.history', { taskId: 'task-1' });
    expect(firings).toMatchObject([{ status: 'queued', turnStatus: null }]);
    expect((await t.call('turn.query', { sessionId, turnId: 'mine' })).turn.status).toBe('waiting');
    await t.call('turn.stop', { sessionId, turnId: 'mine' }).catch(() => {});
  });

  it('skips a firing whose session is archived, pauses the task and says so', async () => {
    const clock = new ManualClock(START);
    const t = await open(clock, dir());
    const sessionId = await sessionIn(t);
    await createTask(t, sessionId, daily('09:00'));
    await t.call('session.archive', { sessionId, archived: true });
    clock.set(Date.parse('2026-12-01T09:00:00Z'));
    const { task } = await t.call('schedule.get', { taskId: 'task-1' });
    expect(task).toMatchObject({
      enabled: false,
      pausedReason: expect.stringMatching(/archived/),
      lastFiring: { status: 'skipped' },
    });
    expect(t.events.some((event) => event.kind === 'host.notice' && event.code === 'automation_paused')).toBe(true);
  });

  it('fires exactly once when Cairn crashes between recording a firing and starting its turn', async () => {
    const clock = new ManualClock(START);
    const dataDir = dir();
    const crashing = await open(clock, dataDir, () => {
      throw new Error('injected crash');
    });
    const sessionId = await sessionIn(crashing);
    await createTask(crashing, sessionId, daily('09:00'));
    clock.set(Date.parse('2026-12-01T09:00:00Z'));
    const firingId = `task-1:${Date.parse('2026-12-01T09:00:00Z')}`;
    expect((await crashing.call('schedule.history', { taskId: 'task-1' })).firings).toMatchObject([
      { firingId, status: 'pending' },
    ]);
    expect(await turnsOf(crashing, sessionId)).toEqual([]);
    await crashing.close();
    clock.advance(MINUTE);
    const t = await open(clock, dataDir);
    await t.waitForTurn(sessionId, firingId, ['completed']);
    await t.close();
    // A crash after the turn started but before its status was written: the same turn, not a second.
    withRawDatabase(dataDir, (raw) => raw.prepare("UPDATE automation_firings SET status = 'pending'").run());
    const again = await open(clock, dataDir);
    expect((await again.call('schedule.history', { taskId: 'task-1' })).firings).toMatchObject([
      { firingId, status: 'started' },
    ]);
    expect((await turnsOf(again, sessionId)).map((turn) => turn.turnId)).toEqual([firingId]);
  });

  it('Run now fires once per request id, outside the schedule', async () => {
    const clock = new ManualClock(START);
    const t = await open(clock, dir());
    const sessionId = await sessionIn(t);
    await createTask(t, sessionId, daily('09:00'));
    const first = await t.call('schedule.runNow', { taskId: 'task-1', requestId: 'r1' });
    const replay = await t.call('schedule.runNow', { taskId: 'task-1', requestId: 'r1' });
    expect(replay.firing.firingId).toBe(first.firing.firingId);
    await t.waitForTurn(sessionId, first.firing.firingId, ['completed']);
    expect(await turnsOf(t, sessionId)).toHaveLength(1);
    expect((await t.call('schedule.get', { taskId: 'task-1' })).task.nextRunAt).toBe(
      Date.parse('2026-12-01T09:00:00Z'),
    );
  });

  it('a new-session task opens a session per firing, never wider than the chosen permission mode', async () => {
    const clock = new ManualClock(START);
    const t = await open(clock, dir());
    await t.call('schedule.create', {
      taskId: 'fresh',
      title: 'Fresh',
      prompt: 'hello',
      target: {
        kind: 'newSession',
        connectionId: 'offline-demo',
        model: null,
        workspacePath: null,
        permissionMode: 'explore',
      },
      schedule: { kind: 'every', minutes: 30 },
      timeZone: 'UTC',
      effect: 'turn',
    });
    clock.advance(30 * MINUTE);
    const { firings } = await t.call('schedule.history', { taskId: 'fresh' });
    const session = (await t.call('session.get', { sessionId: firings[0]!.sessionId! })).session;
    expect(session).toMatchObject({ permissionMode: 'explore', title: 'Fresh' });
  });
});

describe('daily review', () => {
  it('runs once a day in its reserved session, given the day facts; a stale update is operation_conflict', async () => {
    const clock = new ManualClock(START);
    const t = await open(clock, dir());
    const worked = (await t.call('session.create', { title: 'Release notes' })).session.sessionId;
    await t.call('turn.start', { sessionId: worked, turnId: 'w1', text: 'hello' });
    await t.waitForTurn(worked, 'w1', ['completed']);
    const initial = (await t.call('dailyReview.get', {})).config;
    const { config } = await t.call('dailyReview.update', {
      expectedRevision: initial.revision,
      enabled: true,
      time: '18:00',
      timeZone: 'UTC',
      connectionId: null,
      model: null,
    });
    expect(config).toMatchObject({ enabled: true, nextRunAt: Date.parse('2026-12-01T18:00:00Z') });
    const stale = await t.invoke('dailyReview.update', {
      expectedRevision: initial.revision,
      enabled: false,
      time: '18:00',
      timeZone: 'UTC',
      connectionId: null,
      model: null,
    });
    expect(stale).toMatchObject({ ok: false, error: { code: 'operation_conflict' } });
    clock.set(Date.parse('2026-12-01T18:00:00Z'));
    const after = (await t.call('dailyReview.get', {})).config;
    expect(after.sessionId).not.toBeNull();
    const turns = await turnsOf(t, after.sessionId!);
    expect(turns).toHaveLength(1);
    expect(turns[0]!.text).toMatch(/"Release notes": completed/);
    expect((await t.call('session.get', { sessionId: after.sessionId! })).session.title).toBe('Daily review');
    clock.advance(60 * MINUTE);
    expect(await turnsOf(t, after.sessionId!)).toHaveLength(1);
  });
});
