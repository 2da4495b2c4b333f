import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { buildContentSecurityPolicy } from '../../../src-shared/content-security-policy';
import { CLOSE_CODES, negotiateProtocol } from '../../../src-shared/protocol';
import type { DeviceIdentity } from '../../../src-shared/device-model';
import { helloMessage, pairMessage, requestMessage } from '../../../src-shared/protocol-messages';
import type { Logger } from '../../runtime/core/ports';
import type { Host } from '../create-host';
import { createHandshakeLimiter, type HandshakeLimiterOptions } from './handshake-limiter';
import { listenRemembering, type ListenerName, type PortChoice } from './remembered-port';
import { createStaticHandler } from './static-files';

export interface WebSocketTransportOptions {
  readonly host: Host;
  readonly token: string;
  /** 0 picks a free port; 'remembered' the one used last time (kept in `portMemory`) when still free. */
  readonly port: PortChoice;
  /** Where the port is remembered across restarts, and for which listener. */
  readonly portMemory?: { readonly dataDir: string; readonly name: ListenerName };
  /** The address to bind: 127.0.0.1 by default; any other address needs `tls`. */
  readonly address?: string;
  /** The certificate and key this listener serves HTTPS/WSS with; without them it speaks plain HTTP/WS. */
  readonly tls?: { readonly cert: string; readonly key: string } | null;
  /** Other host names (the certificate's DNS names) clients may use in the address bar. */
  readonly hostNames?: readonly string[];
  readonly logger: Logger;
  /** The built renderer to serve; null serves a bare page. */
  readonly staticDir: string | null;
  /** Other origins allowed to connect (a dev server on another port). */
  readonly extraOrigins?: readonly string[];
  readonly helloTimeoutMs?: number;
  /** How failed handshakes are slowed, and how many sockets may wait to say hello. */
  readonly handshakeLimits?: HandshakeLimiterOptions;
}

export interface WebSocketTransport {
  readonly port: number;
  /** The address to open, token in the fragment (never sent to a server, never logged). */
  readonly url: string;
  /** The address to open without the token: `https://192.168.1.5:4778/`. */
  readonly origin: string;
  close(): Promise<void>;
}

/** Room for the largest attachment (a 5 MB image is about 6.7 MB as base64) with its request around it. */
const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;
const MAX_BUFFERED_BYTES = 32 * 1024 * 1024;
/** How long a closed socket's other side has to answer the close before the socket is dropped. */
const CLOSE_GRACE_MS = 1000;

/**
 * The headless host's transport on 127.0.0.1: HTTP for the renderer's files, WebSocket for the
 * protocol of ARCHITECTURE.md §3 (hello/welcome with a token and a protocol range, then requests,
 * responses and pushed events). A refused socket is closed alone; the host keeps serving others.
 */
export async function startWebSocketTransport(options: WebSocketTransportOptions): Promise<WebSocketTransport> {
  const { host, logger } = options;
  const serveStatic = createStaticHandler(options.staticDir);
  const address = options.address ?? '127.0.0.1';
  const tls = options.tls ?? null;
  if (tls === null && !isLoopbackAddress(address)) {
    throw new Error(`Refusing plain HTTP on ${address}: an address other devices can reach is served over HTTPS only.`);
  }
  const scheme = tls === null ? 'http' : 'https';
  let port = 0;
  const names = () => [...(isLoopbackAddress(address) ? ['localhost'] : []), hostForUrl(address), ...(options.hostNames ?? [])];
  const allowedHosts = () => new Set(names().map((name) => `${name}:${port}`));
  const allowedOrigins = () => new Set([...names().map((name) => `${scheme}://${name}:${port}`), ...(options.extraOrigins ?? [])]);

  const limiter = createHandshakeLimiter(options.handshakeLimits);
  const contentSecurityPolicy = buildContentSecurityPolicy();

  const serve: RequestListener = (request, response) => {
    // Every answer, whatever it is: only the app's own scripts run, and no page may frame it.
    response.setHeader('content-security-policy', contentSecurityPolicy);
    response.setHeader('x-frame-options', 'DENY');
    if (!allowedHosts().has(request.headers.host ?? '')) {
      response.writeHead(421, { 'content-type': 'text/plain' }).end('Misdirected request');
      return;
    }
    serveStatic(request, response).catch((error: unknown) => {
      logger.error('Could not serve a file', { error: String(error) });
      if (!response.headersSent) response.writeHead(500).end();
    });
  };
  const server: Server = tls === null ? createServer(serve) : createTlsServer({ cert: tls.cert, key: tls.key, minVersion: 'TLSv1.2' }, serve);
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  let connectionCounter = 0;

  // Sockets that have not said hello yet, oldest first.
  const unauthenticated = new Map<WebSocket, () => void>();

  server.on('upgrade', (request: IncomingMessage, socket, head) => {
    const address = request.socket.remoteAddress ?? 'unknown';
    const origin = request.headers.origin;
    const hostOk = allowedHosts().has(request.headers.host ?? '');
    if (!hostOk || (origin !== undefined && !allowedOrigins().has(origin))) {
      logger.warn('Refused a WebSocket from an unexpected origin', { origin: origin ?? null });
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => {
      connectionCounter += 1;
      serveSocket(ws, `ws-${connectionCounter}`, address);
    });
  });

  /** Closes a socket, and drops it if the other side does not answer the close in time. */
  function closeFirmly(ws: WebSocket, code: number, reason: string) {
    ws.close(code, reason);
    const drop = setTimeout(() => ws.terminate(), CLOSE_GRACE_MS);
    ws.once('close', () => clearTimeout(drop));
  }

  function serveSocket(ws: WebSocket, connectionId: string, address: string) {
    let unsubscribe: (() => void) | null = null;
    let device: DeviceIdentity | undefined;
    let releaseDevice: (() => void) | null = null;
    let refused = false;
    const refuse = (code: number, reason: string) => {
      if (refused) return;
      refused = true;
      const delayMs = limiter.recordFailure();
      if (limiter.recentFailures % 100 === 1) logger.warn('A WebSocket handshake failed', { address, reason, recentFailures: limiter.recentFailures });
      const answer = setTimeout(() => closeFirmly(ws, code, reason), delayMs);
      ws.once('close', () => clearTimeout(answer));
    };
    const helloTimer = setTimeout(() => {
      refused = true;
      closeFirmly(ws, CLOSE_CODES.handshakeTimeout, 'No hello received in time');
    }, options.helloTimeoutMs ?? 10_000);
    unauthenticated.set(ws, () => {
      refused = true;
      clearTimeout(helloTimer);
    });
    // Too many sockets waiting to say hello: the oldest makes room, so a flood never crowds out the next client.
    while (unauthenticated.size > limiter.maxUnauthenticated) {
      const [oldest, giveUp] = unauthenticated.entries().next().value ?? [];
      if (oldest === undefined || giveUp === undefined) break;
      unauthenticated.delete(oldest);
      giveUp();
      closeFirmly(oldest, CLOSE_CODES.handshakeTimeout, 'Too many connections waiting to say hello');
    }
    const send = (message: unknown) => {
      if (ws.readyState !== ws.OPEN) return;
      if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
        // A client this far behind resyncs with queries after reconnecting; better than unbounded memory.
        ws.close(1013, 'Client too slow; reconnect and resync');
        return;
      }
      ws.send(JSON.stringify(message));
    };

    ws.on('message', (data: RawData, isBinary) => {
      const parsed = isBinary ? undefined : parseJson(data.toString());
      if (unsubscribe === null) {
        if (refused) return;
        const pair = pairMessage.safeParse(parsed);
        if (pair.success) return pairDevice(pair.data.pair.code, pair.data.pair.deviceName);
        const hello = helloMessage.safeParse(parsed);
        if (!hello.success) return refuse(CLOSE_CODES.badHandshake, 'Expected a hello message');
        const token = hello.data.hello.token;
        if (!tokenMatches(token, options.token)) {
          device = host.devices.admit(token, address) ?? undefined;
          if (device === undefined) return refuse(CLOSE_CODES.badToken, 'Bad token');
        }
        const protocol = negotiateProtocol(hello.data.hello.protocol.min, hello.data.hello.protocol.max);
        if (protocol === null) return ws.close(CLOSE_CODES.protocolUnsupported, 'No protocol version in common');
        clearTimeout(helloTimer);
        unauthenticated.delete(ws);
        // A revoked device's sockets close at once, and its credential is refused from then on.
        if (device !== undefined) releaseDevice = host.devices.track(device.deviceId, () => closeFirmly(ws, CLOSE_CODES.deviceRevoked, 'This device was signed out'));
        send({ welcome: { protocol, hostEpoch: host.info.hostEpoch, ...(device === undefined ? {} : { device }) } });
        unsubscribe = host.subscribe((event) => send({ event }));
        return;
      }
      const request = requestMessage.safeParse(parsed);
      if (!request.success) {
        // Echo a usable id even when the rest is wrong, so the client can match the answer.
        send({ id: echoableId(parsed), ok: false, error: { code: 'invalid_input', message: 'A request is {"id","op","input"} as JSON.' } });
        return;
      }
      const { id, op, input } = request.data;
      host
        .dispatch(op, input, { transport: 'websocket', connectionId, ...(device === undefined ? {} : { device }) })
        .then((outcome) => send({ id, ...outcome }))
        .catch((error: unknown) => {
          logger.error('Dispatch failed', { op, error: String(error) });
          send({ id, ok: false, error: { code: 'internal_failure', message: 'Something went wrong inside Cairn.' } });
        });
    });
    ws.on('close', () => {
      clearTimeout(helloTimer);
      unauthenticated.delete(ws);
      unsubscribe?.();
      releaseDevice?.();
    });

    /**
     * A device proves a pairing code instead of saying hello, then waits (without the hello timeout)
     * for the desktop to confirm; it leaves with its credential, or the socket closes saying why. A
     * wrong code is a failed handshake like a wrong token: slowed, never locking anyone out.
     */
    function pairDevice(code: string, deviceName: string) {
      refused = true; // nothing more is read from this socket
      clearTimeout(helloTimer);
      unauthenticated.delete(ws);
      const request = host.devices.requestPairing(code, deviceName, address);
      ws.once('close', request.withdraw);
      void request.outcome.then((outcome) => {
        if (outcome.ok) {
          send({ paired: { credential: outcome.credential, device: outcome.device } });
          closeFirmly(ws, 1000, 'Paired');
          return;
        }
        const reason = PAIRING_REFUSALS[outcome.reason];
        if (outcome.reason !== 'wrong_code') return closeFirmly(ws, CLOSE_CODES.pairingRefused, reason);
        const delayMs = limiter.recordFailure();
        const answer = setTimeout(() => closeFirmly(ws, CLOSE_CODES.pairingRefused, reason), delayMs);
        ws.once('close', () => clearTimeout(answer));
      });
    }
    ws.on('error', (error) => logger.warn('WebSocket error', { connectionId, error: String(error) }));
  }

  port = await listenRemembering(server, { address, port: options.port, memory: options.portMemory ?? null, logger });
  const origin = `${scheme}://${hostForUrl(address)}:${port}/`;

  return {
    port,
    origin,
    url: `${origin}#token=${encodeURIComponent(options.token)}`,
    async close() {
      for (const ws of sockets.clients) ws.close(CLOSE_CODES.hostClosing, 'Host is shutting down');
      await new Promise<void>((resolve) => sockets.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Close reasons a pairing device shows (a close reason is at most 123 bytes). */
const PAIRING_REFUSALS = {
  wrong_code: 'That code is not the one on show.',
  expired: 'That code is no longer valid. Show a new one on the desktop.',
  declined: 'The desktop did not pair this device.',
  busy: 'Another device is being paired. Try again in a moment.',
} as const;

function echoableId(parsed: unknown): string | number | null {
  if (typeof parsed !== 'object' || parsed === null || !('id' in parsed)) return null;
  const id = requestMessage.shape.id.safeParse(parsed.id);
  return id.success ? id.data : null;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function tokenMatches(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** 127.0.0.0/8 and ::1: addresses no other machine can reach. */
export function isLoopbackAddress(address: string): boolean {
  return address === '::1' || address === 'localhost' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address);
}

/** An address as it is written in a URL's host: IPv6 in brackets. */
function hostForUrl(address: string): string {
  return address.includes(':') ? `[${address}]` : address;
}
