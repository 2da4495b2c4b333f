import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { WebSocketServer, type WebSocket } from 'ws';
import { buildContentSecurityPolicy } from '../../../src-shared/content-security-policy';
import { CLOSE_CODES } from '../../../src-shared/protocol';
import type { Logger } from '../../runtime/ports/ports';
import type { Host } from '../create-host';
import { createHandshakeLimiter, type HandshakeLimiterOptions } from './handshake-limiter';
import { listenRemembering, type ListenerName, type PortChoice } from './remembered-port';
import { createStaticHandler } from './static-files';
import { serveConnection } from './websocket-connection';

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
  const names = () => [
    ...(isLoopbackAddress(address) ? ['localhost'] : []),
    hostForUrl(address),
    ...(options.hostNames ?? []),
  ];
  const allowedHosts = () => new Set(names().map((name) => `${name}:${port}`));
  const allowedOrigins = () =>
    new Set([...names().map((name) => `${scheme}://${name}:${port}`), ...(options.extraOrigins ?? [])]);

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
  const server: Server =
    tls === null
      ? createServer(serve)
      : createTlsServer({ cert: tls.cert, key: tls.key, minVersion: 'TLSv1.2' }, serve);
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  let connectionCounter = 0;

  // Sockets that have not said hello yet, oldest first.
  const unauthenticated = new Map<WebSocket, () => void>();
  const connectionContext = {
    host,
    token: options.token,
    logger,
    helloTimeoutMs: options.helloTimeoutMs,
    limiter,
    unauthenticated,
  };

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
      serveConnection(connectionContext, ws, `ws-${connectionCounter}`, address);
    });
  });

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

/** 127.0.0.0/8 and ::1: addresses no other machine can reach. */
export function isLoopbackAddress(address: string): boolean {
  return address === '::1' || address === 'localhost' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address);
}

/** An address as it is written in a URL's host: IPv6 in brackets. */
function hostForUrl(address: string): string {
  return address.includes(':') ? `[${address}]` : address;
}
