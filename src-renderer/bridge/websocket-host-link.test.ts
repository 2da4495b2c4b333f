import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChangeEvent } from '../../src-shared/events';
import { CLOSE_CODES } from '../../src-shared/protocol';
import type { ConnectionState } from './host-link';
import { fakeSocketFactory } from './fake-socket';
import { WebSocketHostLink } from './websocket-host-link';

const BACKOFF = { initialMs: 100, maxMs: 1000, jitter: 0 };

function setup(options: { requestTimeoutMs?: number; helloTimeoutMs?: number; onCredentialRefused?: () => void } = {}) {
  const sockets = fakeSocketFactory();
  const link = new WebSocketHostLink({
    url: 'ws://127.0.0.1:1/',
    token: 'secret-token',
    openSocket: sockets.factory,
    backoff: BACKOFF,
    random: () => 0.5,
    ...options,
  });
  const states: ConnectionState[] = [];
  link.onConnectionChange((state) => states.push(state));
  return { link, sockets, states };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('WebSocketHostLink', () => {
  it('says hello with the token and the protocol range, then is open once welcomed', () => {
    const { link, sockets } = setup();
    const socket = sockets.latest();
    expect(socket.url).toBe('ws://127.0.0.1:1/');
    expect(link.connection().status).toBe('connecting');
    socket.open();
    expect(socket.sent).toEqual([{ hello: { token: 'secret-token', protocol: { min: 1, max: 2 } } }]);
    socket.welcome('epoch-7');
    expect(link.connection()).toEqual({ status: 'open', hostEpoch: 'epoch-7', generation: 1, problem: null });
  });

  it('holds requests made before the welcome and sends them after it', async () => {
    const { link, sockets } = setup();
    const answer = link.invoke('session.list', {});
    const socket = sockets.latest();
    socket.open();
    expect(socket.requests()).toEqual([]);
    socket.welcome();
    const [request] = socket.requests();
    expect(request).toMatchObject({ op: 'session.list', input: {} });
    socket.receive({ id: request?.id, ok: true, result: { sessions: [], nextCursor: null } });
    await expect(answer).resolves.toEqual({ ok: true, result: { sessions: [], nextCursor: null } });
  });

  it('passes the host’s errors through as data', async () => {
    const { link, sockets } = setup();
    const socket = sockets.latest();
    socket.open();
    socket.welcome();
    const answer = link.invoke('session.get', { sessionId: 'nope' });
    socket.receive({
      id: socket.requests()[0]?.id,
      ok: false,
      error: { code: 'not_found', message: 'No such session.' },
    });
    await expect(answer).resolves.toEqual({ ok: false, error: { code: 'not_found', message: 'No such session.' } });
  });

  it('delivers events after the welcome, kinds it does not handle included (their seq counts)', () => {
    const { link, sockets } = setup();
    const received: ChangeEvent[] = [];
    link.subscribe((event) => received.push(event));
    const socket = sockets.latest();
    socket.open();
    socket.welcome();
    socket.receive({ event: { seq: 1, hostEpoch: 'epoch-1', kind: 'session.removed', sessionId: 's1' } });
    socket.receive({ event: { seq: 2, hostEpoch: 'epoch-1', kind: 'goal.changed' } });
    socket.receive({ event: { seq: 'three', kind: 'session.removed' } });
    expect(received.map((event) => event.seq)).toEqual([1, 2]);
  });

  it('reconnects with backoff; a query in flight is sent again, a command in flight fails clearly', async () => {
    const { link, sockets, states } = setup();
    const first = sockets.latest();
    first.open();
    first.welcome('epoch-1');
    const query = link.invoke('session.list', {});
    const command = link.invoke('session.create', {});
    expect(first.requests()).toHaveLength(2);

    first.drop(1006);
    expect(link.connection().status).toBe('reconnecting');
    await expect(command).resolves.toMatchObject({ ok: false, error: { code: 'operation_unavailable' } });

    vi.advanceTimersByTime(99);
    expect(sockets.sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    const second = sockets.latest();
    expect(sockets.sockets).toHaveLength(2);
    second.open();
    second.welcome('epoch-2');
    expect(link.connection()).toMatchObject({ status: 'open', generation: 2, hostEpoch: 'epoch-2' });
    const [resent] = second.requests();
    expect(resent).toMatchObject({ op: 'session.list' });
    second.receive({ id: resent?.id, ok: true, result: { sessions: [], nextCursor: null } });
    await expect(query).resolves.toMatchObject({ ok: true });
    expect(states.map((state) => state.status)).toEqual(['open', 'reconnecting', 'open']);
  });

  it('backs off further while the host stays away, and starts over after a welcome', () => {
    const { sockets } = setup();
    sockets.latest().drop();
    vi.advanceTimersByTime(100);
    sockets.latest().drop();
    vi.advanceTimersByTime(199);
    expect(sockets.sockets).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(sockets.sockets).toHaveLength(3);
    sockets.latest().open();
    sockets.latest().welcome();
    sockets.latest().drop();
    vi.advanceTimersByTime(100);
    expect(sockets.sockets).toHaveLength(4);
  });

  it('fails a request that waited too long for the line to come back', async () => {
    const { link, sockets } = setup({ requestTimeoutMs: 5000 });
    sockets.latest().drop();
    const answer = link.invoke('session.list', {});
    vi.advanceTimersByTime(5000);
    const outcome = await answer;
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error.message).toMatch(/not reachable/);
  });

  it('drops a socket that is never welcomed and tries again', () => {
    const { sockets } = setup({ helloTimeoutMs: 1000 });
    sockets.latest().open();
    vi.advanceTimersByTime(1000);
    expect(sockets.sockets[0]?.closedWith).not.toBeNull();
    vi.advanceTimersByTime(100);
    expect(sockets.sockets).toHaveLength(2);
  });

  it('gives up on a refused token, says why, and fails waiting requests', async () => {
    const { link, sockets } = setup();
    const answer = link.invoke('session.list', {});
    sockets.latest().open();
    sockets.latest().drop(CLOSE_CODES.badToken);
    expect(link.connection().status).toBe('failed');
    expect(link.connection().problem).toMatch(/access token/);
    await expect(answer).resolves.toMatchObject({ ok: false, error: { code: 'operation_unavailable' } });
    vi.advanceTimersByTime(60_000);
    expect(sockets.sockets).toHaveLength(1);
  });

  it('says a revoked device was signed out, and does not retry', () => {
    const refused = vi.fn();
    const { link, sockets } = setup({ onCredentialRefused: refused });
    sockets.latest().open();
    sockets.latest().welcome('epoch');
    sockets.latest().drop(CLOSE_CODES.deviceRevoked);
    expect(link.connection()).toMatchObject({
      status: 'failed',
      problem: expect.stringMatching(/^This device was signed out/),
    });
    expect(refused).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(60_000);
    expect(sockets.sockets).toHaveLength(1);
  });

  it('tells its owner when the host refuses the credential at hello (a device revoked while away), not when the line drops', () => {
    const refused = vi.fn();
    const { sockets } = setup({ onCredentialRefused: refused });
    sockets.latest().open();
    sockets.latest().drop(1006);
    expect(refused).not.toHaveBeenCalled();
    vi.advanceTimersByTime(60_000);
    sockets.latest().open();
    sockets.latest().drop(CLOSE_CODES.badToken);
    expect(refused).toHaveBeenCalledTimes(1);
  });

  it('ignores a stale socket once a newer one took over', () => {
    const { link, sockets } = setup();
    const first = sockets.latest();
    first.drop();
    vi.advanceTimersByTime(100);
    first.welcome('late');
    expect(link.connection().status).not.toBe('open');
  });
});
