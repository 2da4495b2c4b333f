import { request } from 'node:http';
import WebSocket from 'ws';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLOSE_CODES } from '../../../src-shared/protocol';
import { silentLogger } from '../../runtime/ports/ports';
import { startTestHost, type TestHost } from '../../testing/host-fixture';
import { connectProtocolClient, HandshakeRefused, type ProtocolClient } from '../../testing/protocol-client';
import { waitFor } from '../../testing/wait-for';
import { startWebSocketTransport, type WebSocketTransport } from './websocket-transport';

const TOKEN = 'test-token-0123456789';
let t: TestHost;
let transport: WebSocketTransport;
let wsUrl: string;
const clients: ProtocolClient[] = [];

beforeEach(async () => {
  t = await startTestHost();
  transport = await startWebSocketTransport({
    host: t.host,
    token: TOKEN,
    port: 0,
    logger: silentLogger,
    staticDir: null,
    helloTimeoutMs: 500,
  });
  wsUrl = `ws://127.0.0.1:${transport.port}/`;
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await transport.close();
  await t.close();
});

async function connect(options: Partial<Parameters<typeof connectProtocolClient>[1]> = {}) {
  const client = await connectProtocolClient(wsUrl, { token: TOKEN, ...options });
  clients.push(client);
  return client;
}

async function refusal(options: Partial<Parameters<typeof connectProtocolClient>[1]>): Promise<unknown> {
  try {
    const client = await connect(options);
    return client;
  } catch (error) {
    return error;
  }
}

describe('the WebSocket transport', () => {
  it('prints a URL with the token in the fragment', () => {
    expect(transport.url).toBe(`http://127.0.0.1:${transport.port}/#token=${TOKEN}`);
  });

  it('welcomes a client with the negotiated protocol and host epoch, then answers requests', async () => {
    const client = await connect({ protocol: { min: 1, max: 7 } });
    expect(client.welcome).toEqual({ protocol: 2, hostEpoch: t.host.info.hostEpoch });
    // A protocol 1 client is still served (for one version).
    const older = await connect({ protocol: { min: 1, max: 1 } });
    expect(older.welcome).toEqual({ protocol: 1, hostEpoch: t.host.info.hostEpoch });
    const info = await client.call('host.info', {});
    expect(info.hostEpoch).toBe(t.host.info.hostEpoch);
  });

  it('refuses a bad token, a foreign Origin and a protocol range it does not speak, and keeps serving others', async () => {
    const good = await connect();
    const badToken = await refusal({ token: 'wrong-token-0123456789' });
    expect(badToken).toBeInstanceOf(HandshakeRefused);
    expect((badToken as HandshakeRefused).closeCode).toBe(CLOSE_CODES.badToken);
    const badOrigin = await refusal({ origin: 'http://evil.example' });
    expect(String(badOrigin)).toContain('HTTP 403');
    const badProtocol = await refusal({ protocol: { min: 3, max: 4 } });
    expect((badProtocol as HandshakeRefused).closeCode).toBe(CLOSE_CODES.protocolUnsupported);
    const sameOrigin = await connect({ origin: `http://127.0.0.1:${transport.port}` });
    expect((await sameOrigin.call('host.info', {})).name).toBe('Cairn');
    expect((await good.call('session.create', {})).session.title).toBe('New session');
  });

  it('closes a socket whose first message is not a hello, or that never says hello', async () => {
    const garbage = new WebSocket(wsUrl);
    const closed = new Promise<number>((resolve) => garbage.on('close', (code) => resolve(code)));
    garbage.on('open', () => garbage.send('{not json'));
    expect(await closed).toBe(CLOSE_CODES.badHandshake);
    const silent = new WebSocket(wsUrl);
    expect(await new Promise<number>((resolve) => silent.on('close', (code) => resolve(code)))).toBe(
      CLOSE_CODES.handshakeTimeout,
    );
  });

  it('answers a malformed request with invalid_input and keeps the socket open', async () => {
    const client = await connect();
    expect(await client.sendRaw('{oops')).toMatchObject({ id: null, ok: false, error: { code: 'invalid_input' } });
    expect(await client.sendRaw(JSON.stringify({ id: 1, op: 'host.info' }))).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    // A usable id is echoed even when the envelope is wrong, so the client can match the answer.
    expect(await client.sendRaw(JSON.stringify({ id: 'req-7', op: 'host.info' }))).toEqual({
      id: 'req-7',
      ok: false,
      error: { code: 'invalid_input', message: 'A request is {"id","op","input"} as JSON.' },
    });
    expect(await client.sendRaw(JSON.stringify({ id: 42, op: 7, input: {} }))).toMatchObject({ id: 42, ok: false });
    const refused = await client.invoke('session.create', { title: 'x', nope: true } as never);
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect((await client.call('host.info', {})).name).toBe('Cairn');
  });

  it('refuses requests for another Host header (DNS rebinding)', async () => {
    const status = await new Promise<number | undefined>((resolve, reject) => {
      request({ host: '127.0.0.1', port: transport.port, path: '/', headers: { host: 'evil.example' } }, (response) => {
        response.resume();
        resolve(response.statusCode);
      })
        .on('error', reject)
        .end();
    });
    expect(status).toBe(421);
    const ok = await fetch(`http://127.0.0.1:${transport.port}/`);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('Cairn');
  });

  it('pushes change events with increasing seq; a reconnecting client resyncs with queries', async () => {
    const watcher = await connect();
    const actor = await connect();
    const { session } = await actor.call('session.create', {});
    await actor.call('turn.start', { sessionId: session.sessionId, turnId: 't1', text: '/stream 10 5' });
    await waitFor(
      () => watcher.events.some((event) => event.kind === 'turn.changed' && event.turn.status === 'completed'),
      {
        message: 'completion event',
      },
    );
    const seqs = watcher.events.map((event) => event.seq);
    seqs.slice(1).forEach((seq, index) => expect(seq).toBeGreaterThan(seqs[index] ?? Infinity));
    await watcher.close();
    await actor.call('turn.start', { sessionId: session.sessionId, turnId: 't2', text: 'while you were away' });
    await t.waitForTurn(session.sessionId, 't2', ['completed']);
    const back = await connect();
    const snapshot = await back.call('session.get', { sessionId: session.sessionId });
    expect(snapshot.transcript.items.filter((item) => item.kind === 'user_message').map((item) => item.text)).toEqual([
      '/stream 10 5',
      'while you were away',
    ]);
    expect(snapshot.session.activity).toBe('completed');
  });

  it('sends a Content-Security-Policy and X-Frame-Options: DENY with every HTTP response', async () => {
    const page = await fetch(`http://127.0.0.1:${transport.port}/`);
    const refused = await fetch(`http://127.0.0.1:${transport.port}/`, { method: 'POST' });
    for (const response of [page, refused]) {
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    }
    expect(refused.status).toBe(405);
  });
});

describe('failed handshakes', () => {
  it('never lock out the right token: after 200 wrong tokens and 100 idle sockets the real client is welcomed at once, and idle sockets are closed by the hello timeout', async () => {
    // Long enough for the real client to be welcomed while the idle sockets wait, shorter than the
    // default 10 s, which this test used to wait out.
    const helloTimeoutMs = 4_000;
    const guarded = await startWebSocketTransport({
      host: t.host,
      token: TOKEN,
      port: 0,
      logger: silentLogger,
      staticDir: null,
      helloTimeoutMs,
    });
    const idle: WebSocket[] = [];
    try {
      const url = `ws://127.0.0.1:${guarded.port}/`;
      const wrong = async () => {
        try {
          const client = await connectProtocolClient(url, { token: 'wrong-token-0123456789' });
          await client.close();
          return 'welcomed';
        } catch (error) {
          return error instanceof HandshakeRefused ? error.closeCode : String(error);
        }
      };
      // 200 wrong tokens, 20 at a time: each is refused, and none is welcomed.
      const answers: Array<number | string> = [];
      for (let batch = 0; batch < 10; batch += 1)
        answers.push(...(await Promise.all(Array.from({ length: 20 }, wrong))));
      expect(answers.filter((answer) => answer !== CLOSE_CODES.badToken)).toEqual([]);

      // 100 sockets that open and never say hello.
      const closedAt = new Map<WebSocket, number>();
      for (let index = 0; index < 100; index += 1) {
        const socket = new WebSocket(url);
        socket.on('close', (code) => closedAt.set(socket, code));
        socket.on('error', () => undefined);
        idle.push(socket);
      }
      await waitFor(() => idle.every((socket) => socket.readyState !== WebSocket.CONNECTING), {
        message: 'the idle sockets to open',
        timeoutMs: 30_000,
      });
      const openedAt = Date.now();

      // The person's own client: welcomed at once, and it works.
      const client = await connectProtocolClient(url, { token: TOKEN });
      clients.push(client);
      expect((await client.call('host.info', {})).hostEpoch).toBe(t.host.info.hostEpoch);

      await waitFor(() => closedAt.size === idle.length, {
        message: 'every idle socket to be closed',
        timeoutMs: 30_000,
      });
      expect(Date.now() - openedAt).toBeLessThan(helloTimeoutMs + 1_000 + 2_000);
      expect(new Set(closedAt.values())).toEqual(new Set([CLOSE_CODES.handshakeTimeout]));
      // The client that said hello is untouched by the timeouts.
      expect((await client.call('host.info', {})).hostEpoch).toBe(t.host.info.hostEpoch);
    } finally {
      for (const socket of idle) socket.terminate();
      await guarded.close();
    }
  }, 60_000);
});
