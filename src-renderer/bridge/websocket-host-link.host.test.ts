/* eslint-disable no-restricted-imports -- This test runs in Node: it starts a real host and gives the
   link the `ws` package's socket, to check the client against the server it is written for. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import type { ChangeEvent } from '../../src-shared/events';
import { sequentialIds, silentLogger } from '../../src-main/runtime/ports/ports';
import { startTestHost, tempDataDir, type TestHost } from '../../src-main/testing/host-fixture';
import { startWebSocketTransport, type WebSocketTransport } from '../../src-main/host/transports/websocket-transport';
import { EventSequencer } from './event-sequencer';
import type { SocketFactory } from './websocket-host-link';
import { WebSocketHostLink } from './websocket-host-link';

const TOKEN = 'renderer-test-token-42';
const cleanups: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The `ws` package's socket behind the link's socket interface. */
const nodeSocketFactory: SocketFactory = (url, handlers) => {
  const socket = new WebSocket(url);
  socket.on('open', () => handlers.open());
  socket.on('message', (data, isBinary) => {
    if (!isBinary) handlers.message(data.toString());
  });
  socket.on('close', (code, reason) => handlers.close(code, reason.toString()));
  socket.on('error', () => {});
  return { send: (text) => socket.send(text), close: (code, reason) => socket.close(code, reason) };
};

async function serve(host: TestHost, port = 0): Promise<WebSocketTransport> {
  const transport = await startWebSocketTransport({
    host: host.host,
    token: TOKEN,
    port,
    logger: silentLogger,
    staticDir: null,
  });
  return transport;
}

function link(port: number, token = TOKEN): WebSocketHostLink {
  const created = new WebSocketHostLink({
    url: `ws://127.0.0.1:${port}/`,
    token,
    openSocket: nodeSocketFactory,
    backoff: { initialMs: 20, maxMs: 200, jitter: 0 },
  });
  cleanups.push(() => created.close());
  return created;
}

describe('WebSocketHostLink against the real host', () => {
  it('handshakes, answers operations and streams events in seq order', async () => {
    const host = await startTestHost();
    cleanups.push(() => host.close());
    const transport = await serve(host);
    cleanups.push(() => transport.close());
    const client = link(transport.port);
    const events: ChangeEvent[] = [];
    client.subscribe((event) => events.push(event));

    const created = await client.invoke('session.create', { title: 'Over the wire' });
    expect(created.ok).toBe(true);
    if (!created.ok) return;
    expect(client.connection()).toMatchObject({ status: 'open', generation: 1, hostEpoch: host.host.info.hostEpoch });
    const { sessionId } = created.result.session;
    const started = await client.invoke('turn.start', { sessionId, turnId: 'turn-1', text: '/stream 5 5' });
    expect(started.ok).toBe(true);
    await vi.waitFor(() =>
      expect(events.some((e) => e.kind === 'turn.changed' && e.turn.status === 'completed')).toBe(true),
    );

    const sequencer = new EventSequencer();
    expect(events.map((event) => sequencer.check(event))).toEqual(events.map(() => 'next'));
    const missing = await client.invoke('session.get', { sessionId: 'missing' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('reconnects when the transport comes back, and sees a new epoch after a host restart', async () => {
    const data = tempDataDir();
    cleanups.push(() => data.cleanup());
    let host = await startTestHost({ dataDir: data.dir });
    let transport = await serve(host);
    const port = transport.port;
    const client = link(port);
    await vi.waitFor(() => expect(client.connection().status).toBe('open'));
    const firstEpoch = client.connection().hostEpoch;

    await transport.close();
    await vi.waitFor(() => expect(client.connection().status).toBe('reconnecting'));
    const waiting = client.invoke('session.list', {});
    transport = await serve(host, port);
    await expect(waiting).resolves.toMatchObject({ ok: true });
    expect(client.connection()).toMatchObject({ status: 'open', generation: 2, hostEpoch: firstEpoch });

    await transport.close();
    await host.close();
    host = await startTestHost({ dataDir: data.dir, ids: sequentialIds('restarted-') });
    transport = await serve(host, port);
    cleanups.push(() => host.close());
    cleanups.push(() => transport.close());
    await vi.waitFor(() => expect(client.connection()).toMatchObject({ status: 'open', generation: 3 }), {
      timeout: 5000,
    });
    expect(client.connection().hostEpoch).not.toBe(firstEpoch);
  });

  it('stops trying, with a reason, when the host refuses the token', async () => {
    const host = await startTestHost();
    cleanups.push(() => host.close());
    const transport = await serve(host);
    cleanups.push(() => transport.close());
    const client = link(transport.port, 'not-the-token-000');
    const outcome = await client.invoke('session.list', {});
    expect(outcome).toMatchObject({ ok: false, error: { code: 'operation_unavailable' } });
    expect(client.connection()).toMatchObject({ status: 'failed' });
    expect(client.connection().problem).toMatch(/access token/);
  });
});
