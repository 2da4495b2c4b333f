import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OperationInput, OperationName } from '../../src-shared/operations';
import { OPERATION_NAMES } from '../../src-shared/operations';
import { startTestHost, type TestHost } from '../testing/host-fixture';
import { recordFingerprint } from '../testing/record-fingerprint';
import { handlers } from './handlers';

let t: TestHost;
beforeEach(async () => {
  t = await startTestHost();
});
afterEach(async () => {
  await t.close();
});

async function newSession(title?: string) {
  const { session } = await t.call('session.create', title === undefined ? {} : { title });
  return session;
}

async function completedTurn(sessionId: string, turnId: string, text = 'hello') {
  await t.call('turn.start', { sessionId, turnId, text });
  return t.waitForTurn(sessionId, turnId, ['completed']);
}

describe('the operation table', () => {
  it('has exactly one handler per operation', () => {
    expect(Object.keys(handlers).sort()).toEqual([...OPERATION_NAMES].sort());
  });
});

describe('invalid input is refused and writes nothing', () => {
  const cases: Array<[OperationName, unknown]> = [
    ['host.info', { extra: 1 }],
    ['session.create', { title: '   ' }],
    ['session.create', { permissionMode: 'yolo' }],
    ['session.create', { title: 'x', colour: 'red' }],
    ['session.list', { limit: 0 }],
    ['session.get', {}],
    ['session.rename', { sessionId: 'session-1', title: '' }],
    ['session.archive', { sessionId: 'session-1', archived: 'yes' }],
    ['session.remove', { sessionId: '../etc' }],
    ['transcript.page', { sessionId: 'session-1', limit: 10_000 }],
    ['turn.start', { sessionId: 'session-1', turnId: 't', text: '   ' }],
    ['turn.start', { sessionId: 'session-1', turnId: 't', text: 'hi', maxSteps: 0 }],
    ['turn.stop', { sessionId: 'session-1', source: 'Not A Source' }],
    ['turn.query', { sessionId: 'session-1' }],
    ['turn.resume', { sessionId: 'session-1', turnId: 't', now: true }],
    ['turn.message.submit', { sessionId: 'session-1', messageId: 'm', text: 'x', placement: 'now' }],
    ['turn.message.query', { sessionId: 'session-1', messageIds: 'm' }],
  ];

  it.each(cases)('%s %j', async (op, input) => {
    await newSession();
    const before = recordFingerprint(t.dataDir);
    const eventsBefore = t.events.length;
    const outcome = await t.host.dispatch(op, input, { transport: 'direct', connectionId: 'test' });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.error.code).toBe('invalid_input');
      expect(outcome.error.message).toMatch(new RegExp(`^Invalid input for ${op.replace('.', '\\.')}`));
    }
    expect(recordFingerprint(t.dataDir)).toBe(before);
    expect(t.events.length).toBe(eventsBefore);
  });

  it('names an unknown operation', async () => {
    const outcome = await t.host.dispatch('session.explode', {}, { transport: 'direct', connectionId: 'test' });
    expect(outcome).toEqual({
      ok: false,
      error: { code: 'invalid_input', message: 'There is no operation named "session.explode".' },
    });
  });
});

describe('not found', () => {
  const cases: Array<[OperationName, OperationInput<OperationName>]> = [
    ['session.get', { sessionId: 'nope' }],
    ['session.rename', { sessionId: 'nope', title: 'x' }],
    ['session.archive', { sessionId: 'nope', archived: true }],
    ['session.remove', { sessionId: 'nope' }],
    ['transcript.page', { sessionId: 'nope' }],
    ['turn.start', { sessionId: 'nope', turnId: 't', text: 'hi' }],
    ['turn.stop', { sessionId: 'nope' }],
    ['turn.query', { sessionId: 'nope', turnId: 't' }],
    ['turn.resume', { sessionId: 'nope', turnId: 't' }],
    ['turn.message.submit', { sessionId: 'nope', messageId: 'm', text: 'hi', placement: 'next_turn' }],
    ['turn.message.query', { sessionId: 'nope' }],
  ];
  it.each(cases)('%s', async (op, input) => {
    const before = recordFingerprint(t.dataDir);
    const outcome = await t.host.dispatch(op, input, { transport: 'direct', connectionId: 'test' });
    expect(outcome.ok ? null : outcome.error.code).toBe('not_found');
    expect(recordFingerprint(t.dataDir)).toBe(before);
  });

  it('a turn that does not exist in an existing session', async () => {
    const session = await newSession();
    for (const op of ['turn.query', 'turn.resume'] as const) {
      const outcome = await t.invoke(op, { sessionId: session.sessionId, turnId: 'ghost' });
      expect(outcome.ok ? null : outcome.error.code).toBe('not_found');
    }
    const stop = await t.invoke('turn.stop', { sessionId: session.sessionId, turnId: 'ghost' });
    expect(stop.ok ? null : stop.error.code).toBe('not_found');
  });
});

describe('archived sessions', () => {
  it('refuse new work but still answer reads, and unarchive restores them', async () => {
    const session = await newSession('Archive me');
    await completedTurn(session.sessionId, 't1');
    const { session: archived } = await t.call('session.archive', { sessionId: session.sessionId, archived: true });
    expect(archived.archived).toBe(true);
    const before = recordFingerprint(t.dataDir);
    for (const outcome of [
      await t.invoke('turn.start', { sessionId: session.sessionId, turnId: 't2', text: 'hi' }),
      await t.invoke('turn.resume', { sessionId: session.sessionId, turnId: 't1' }),
      await t.invoke('turn.message.submit', {
        sessionId: session.sessionId,
        messageId: 'm1',
        text: 'hi',
        placement: 'next_turn',
      }),
    ]) {
      expect(outcome.ok ? null : outcome.error.code).toBe('session_archived');
    }
    expect(recordFingerprint(t.dataDir)).toBe(before);
    expect((await t.call('session.get', { sessionId: session.sessionId })).transcript.items).toHaveLength(2);
    expect((await t.call('session.list', {})).sessions.map((s) => s.sessionId)).not.toContain(session.sessionId);
    expect((await t.call('session.list', { archived: true })).sessions.map((s) => s.sessionId)).toEqual([
      session.sessionId,
    ]);
    await t.call('session.archive', { sessionId: session.sessionId, archived: false });
    await completedTurn(session.sessionId, 't2');
  });

  it('archiving stops the running turn with source session_archived', async () => {
    const session = await newSession();
    await t.call('turn.start', { sessionId: session.sessionId, turnId: 'held', text: '/hold' });
    await t.call('session.archive', { sessionId: session.sessionId, archived: true });
    const { turn } = await t.call('turn.query', { sessionId: session.sessionId, turnId: 'held' });
    expect(turn.status).toBe('cancelled');
    expect(turn.latestRun.terminalReason).toBe('session_archived');
  });
});

describe('happy paths', () => {
  it('host.info names the version, protocol and epoch', async () => {
    const info = await t.call('host.info', {});
    expect(info).toMatchObject({ name: 'Cairn', protocol: 2, hostEpoch: 'epoch-1', backends: ['offline-demo'] });
  });

  it('host.vitals reports the host memory and how late its event loop ran since the previous reading', async () => {
    await t.call('host.vitals', {});
    const blockedFor = 400;
    const started = performance.now();
    while (performance.now() - started < blockedFor) {
      // The event loop is held here, as a long synchronous task in the host would hold it.
    }
    // The histogram's timer, due while the loop was held, runs in the next timers phase before this
    // one (timers run in the order they fell due): by then the late tick is recorded.
    await new Promise<void>((resolve) => setTimeout(resolve, 1));
    const held = await t.call('host.vitals', {});
    expect(held.eventLoopDelayMs.max).toBeGreaterThanOrEqual(blockedFor - 20);
    expect(held.windowMs).toBeGreaterThanOrEqual(blockedFor);
    const vitals = await t.call('host.vitals', {});
    expect(vitals.rssBytes).toBeGreaterThan(vitals.heapUsedBytes);
    expect(vitals.heapTotalBytes).toBeGreaterThanOrEqual(vitals.heapUsedBytes);
    // The reading above started a new window: the held loop is not in it.
    expect(vitals.eventLoopDelayMs.max).toBeLessThan(blockedFor - 20);
  });

  it('session.create takes its options and defaults the rest', async () => {
    const { session } = await t.call('session.create', {
      title: 'Plan the launch',
      workspacePath: t.dataDir,
      model: 'scripted',
      permissionMode: 'explore',
    });
    expect(session).toMatchObject({
      title: 'Plan the launch',
      titleSource: 'user',
      workspacePath: t.dataDir,
      connectionId: 'offline-demo',
      model: 'scripted',
      permissionMode: 'explore',
      archived: false,
      activity: 'idle',
      revision: 1,
    });
    const missing = await t.invoke('session.create', { workspacePath: '/no/such/folder' });
    expect(missing.ok ? null : missing.error.message).toBe(
      'The folder /no/such/folder does not exist on this machine.',
    );
    const plain = await newSession();
    expect(plain).toMatchObject({
      title: 'New session',
      titleSource: 'default',
      permissionMode: 'ask',
      workspacePath: null,
    });
    expect(t.events.filter((event) => event.kind === 'session.changed')).toHaveLength(2);
  });

  it('session.list pages newest first and searches titles', async () => {
    for (const title of ['alpha notes', 'beta plan', 'gamma notes', 'delta 100%']) await newSession(title);
    const first = await t.call('session.list', { limit: 3 });
    expect(first.sessions.map((s) => s.title)).toEqual(['delta 100%', 'gamma notes', 'beta plan']);
    expect(first.nextCursor).not.toBeNull();
    const second = await t.call('session.list', { limit: 3, cursor: first.nextCursor ?? '' });
    expect(second.sessions.map((s) => s.title)).toEqual(['alpha notes']);
    expect(second.nextCursor).toBeNull();
    expect((await t.call('session.list', { query: 'NOTES' })).sessions.map((s) => s.title)).toEqual([
      'gamma notes',
      'alpha notes',
    ]);
    expect((await t.call('session.list', { query: '100%' })).sessions.map((s) => s.title)).toEqual(['delta 100%']);
    expect((await t.call('session.list', { query: '%' })).sessions.map((s) => s.title)).toEqual(['delta 100%']);
    const bad = await t.invoke('session.list', { cursor: 'garbage' });
    expect(bad.ok ? null : bad.error.code).toBe('invalid_input');
  });

  it('session.get returns the session, its newest page, the active turn and the queue', async () => {
    const session = await newSession();
    await t.call('turn.start', { sessionId: session.sessionId, turnId: 'held', text: '/hold' });
    await t.call('turn.message.submit', {
      sessionId: session.sessionId,
      messageId: 'm1',
      text: 'next',
      placement: 'next_turn',
    });
    const snapshot = await t.call('session.get', { sessionId: session.sessionId });
    expect(snapshot.session.activity).toBe('running');
    expect(snapshot.activeTurn?.turnId).toBe('held');
    expect(snapshot.queue.map((m) => m.messageId)).toEqual(['m1']);
    expect(snapshot.transcript.items[0]).toMatchObject({ kind: 'user_message', text: '/hold' });
    expect(snapshot.transcript.turns.map((turn) => turn.turnId)).toEqual(['held']);
    await t.call('turn.stop', { sessionId: session.sessionId });
  });

  it('session.rename checks the expected revision and wins over the automatic title', async () => {
    const session = await newSession();
    const { session: renamed } = await t.call('session.rename', {
      sessionId: session.sessionId,
      title: 'My name',
      expectedRevision: session.revision,
    });
    expect(renamed).toMatchObject({ title: 'My name', titleSource: 'user', revision: session.revision + 1 });
    const stale = await t.invoke('session.rename', {
      sessionId: session.sessionId,
      title: 'Other',
      expectedRevision: session.revision,
    });
    expect(stale.ok ? null : stale.error.code).toBe('revision_conflict');
    await completedTurn(session.sessionId, 't1', 'Summarise the quarterly report');
    expect((await t.call('session.get', { sessionId: session.sessionId })).session.title).toBe('My name');
  });

  it('the first message names an untitled session', async () => {
    const session = await newSession();
    await completedTurn(session.sessionId, 't1', '\n  Summarise   the quarterly report\nwith charts');
    await completedTurn(session.sessionId, 't2', 'And something else');
    expect((await t.call('session.get', { sessionId: session.sessionId })).session).toMatchObject({
      title: 'Summarise the quarterly report',
      titleSource: 'auto',
    });
  });

  it('session.remove deletes the session and everything in it', async () => {
    const session = await newSession();
    await completedTurn(session.sessionId, 't1');
    expect(await t.call('session.remove', { sessionId: session.sessionId })).toEqual({
      sessionId: session.sessionId,
      removed: true,
    });
    const gone = await t.invoke('session.get', { sessionId: session.sessionId });
    expect(gone.ok ? null : gone.error.code).toBe('not_found');
    // Only the WorkHub's own session remains.
    expect(recordFingerprint(t.dataDir)).toMatch(
      /^sessions=1;turns=0;runs=0;ledger=0;transcript_items=0;queued_messages=0/,
    );
    expect(t.events.at(-1)).toMatchObject({ kind: 'session.removed', sessionId: session.sessionId });
  });

  it('transcript.page reads older pages by cursor, oldest first within a page', async () => {
    const session = await newSession();
    for (let index = 1; index <= 3; index += 1) await completedTurn(session.sessionId, `t${index}`, `message ${index}`);
    const newest = await t.call('transcript.page', { sessionId: session.sessionId, limit: 4 });
    expect(newest.items.map((item) => item.position)).toEqual([2, 3, 4, 5]);
    expect(newest.nextBefore).toBe(2);
    const older = await t.call('transcript.page', { sessionId: session.sessionId, before: 2, limit: 4 });
    expect(older.items.map((item) => item.text.slice(0, 9))).toEqual(['message 1', 'You said:']);
    expect(older.nextBefore).toBeNull();
    expect(older.turns.map((turn) => turn.turnId)).toEqual(['t1']);
  });

  it('transcript.page reads a window before a position and the pages after it, saying whether newer ones remain', async () => {
    const session = await newSession();
    for (let index = 1; index <= 3; index += 1) await completedTurn(session.sessionId, `t${index}`, `message ${index}`);
    const newest = await t.call('transcript.page', { sessionId: session.sessionId, limit: 4 });
    expect(newest.nextAfter).toBeNull();
    const window = await t.call('transcript.page', { sessionId: session.sessionId, before: 3, limit: 2 });
    expect(window.items.map((item) => item.position)).toEqual([1, 2]);
    expect(window).toMatchObject({ nextBefore: 1, nextAfter: 2 });
    const newer = await t.call('transcript.page', { sessionId: session.sessionId, after: 2, limit: 2 });
    expect(newer.items.map((item) => item.position)).toEqual([3, 4]);
    expect(newer).toMatchObject({ nextBefore: 3, nextAfter: 4 });
    const last = await t.call('transcript.page', { sessionId: session.sessionId, after: 4, limit: 2 });
    expect(last.items.map((item) => item.position)).toEqual([5]);
    expect(last.nextAfter).toBeNull();
    const both = await t.invoke('transcript.page', { sessionId: session.sessionId, before: 3, after: 1 });
    expect(both.ok ? null : both.error.code).toBe('invalid_input');
  });

  it('transcript.page and session.get read the page around a position: a third from it on, fuller before it near the newest', async () => {
    const session = await newSession();
    for (let index = 1; index <= 3; index += 1) await completedTurn(session.sessionId, `t${index}`, `message ${index}`);
    const page = (around: number, limit: number) =>
      t.call('transcript.page', { sessionId: session.sessionId, around, limit });
    const middle = await page(3, 3);
    expect(middle.items.map((item) => item.position)).toEqual([1, 2, 3]);
    expect(middle).toMatchObject({ nextBefore: 1, nextAfter: 3 });
    expect(middle.turns.map((turn) => turn.turnId)).toEqual(['t1', 't2']);
    const nearNewest = await page(5, 4);
    expect(nearNewest.items.map((item) => item.position)).toEqual([2, 3, 4, 5]);
    expect(nearNewest).toMatchObject({ nextBefore: 2, nextAfter: null });
    const start = await page(0, 3);
    expect(start.items.map((item) => item.position)).toEqual([0]);
    expect(start).toMatchObject({ nextBefore: null, nextAfter: 0 });
    const pastNewest = await page(99, 2);
    expect(pastNewest.items.map((item) => item.position)).toEqual([4, 5]);
    const snapshot = await t.call('session.get', { sessionId: session.sessionId, around: 1 });
    expect(snapshot.transcript).toEqual(await t.call('transcript.page', { sessionId: session.sessionId, around: 1 }));
    const both = await t.invoke('transcript.page', { sessionId: session.sessionId, before: 3, around: 1 });
    expect(both.ok ? null : both.error.code).toBe('invalid_input');
  });

  it('turn.query lists the runs with their terminal reasons', async () => {
    const session = await newSession();
    await t.call('turn.start', { sessionId: session.sessionId, turnId: 'f', text: '/fail rate_limited Slow down' });
    const failed = await t.waitForTurn(session.sessionId, 'f', ['failed']);
    expect(failed.latestRun).toMatchObject({
      status: 'failed',
      terminalReason: 'provider_error',
      errorCode: 'rate_limited',
      errorMessage: 'Slow down',
    });
    await t.call('turn.resume', { sessionId: session.sessionId, turnId: 'f' });
    const { turn } = await t.call('turn.query', { sessionId: session.sessionId, turnId: 'f' });
    expect(turn.runs.map((run) => [run.attempt, run.kind, run.status])).toEqual([
      [1, 'initial', 'failed'],
      [2, 'resume', expect.stringMatching(/running|failed/)],
    ]);
  });
});
