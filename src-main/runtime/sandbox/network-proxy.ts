import { lookup } from 'node:dns/promises';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { connect, isIPv4, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/**
 * The host side of a sandboxed command's network: an HTTP proxy on a Unix socket (bound into the
 * sandbox, where socat bridges 127.0.0.1:<port> to it). CONNECT carries HTTPS, an absolute-form
 * request plain http://. A host passes only when `allows` says so; Cairn's own ports on loopback
 * never do. A refused request answers 403 "blocked by the sandbox: network to <host>" and is reported.
 */

export interface NetworkProxyOptions {
  readonly socketPath: string;
  /** Whether `host:port` is on the session's or the global allowlist, asked per request. */
  readonly allows: (host: string, port: number) => boolean;
  /** Ports the host itself listens on: never reachable on loopback, allowlist or not. */
  readonly ownPorts: () => readonly number[];
  /** A request was refused. */
  readonly onBlocked: (block: { readonly host: string; readonly port: number; readonly own: boolean }) => void;
  /** Resolves a host name to an address (default: the system's resolver). Tests map a name to 127.0.0.1. */
  readonly resolve?: (host: string) => Promise<string>;
}

export interface NetworkProxy {
  close(): Promise<void>;
}

export function blockedLine(host: string): string {
  return `blocked by the sandbox: network to ${host}`;
}

/** The system's answer, IPv4 first (`localhost` may list ::1 first; servers on loopback usually listen on 127.0.0.1). */
async function systemResolve(host: string): Promise<string> {
  const addresses = await lookup(host, { all: true });
  const chosen = addresses.find((entry) => entry.family === 4) ?? addresses[0];
  if (chosen === undefined) throw new Error(`${host} has no address`);
  return chosen.address;
}

/** An address that reaches this machine's own listeners: loopback, and the unspecified address (0.0.0.0 connects locally). */
function isLoopback(address: string): boolean {
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return (isIPv4(v4) && (v4.startsWith('127.') || v4 === '0.0.0.0')) || address === '::1' || address === '::';
}

/** `host:port` of a CONNECT target, or null when it is not one. */
function splitTarget(target: string, defaultPort: number): { host: string; port: number } | null {
  const match = /^\[?([^\]]*?)\]?(?::(\d{1,5}))?$/.exec(target);
  if (match?.[1] === undefined || match[1] === '') return null;
  const port = match[2] === undefined ? defaultPort : Number(match[2]);
  return port >= 1 && port <= 65535 ? { host: match[1].toLowerCase(), port } : null;
}

/**
 * Starts listening at once: a Unix socket is bound and listening when this returns (Node binds a
 * pipe synchronously), so a command started next can connect. A failure to listen is reported to `onError`.
 */
export function startNetworkProxy(
  options: NetworkProxyOptions,
  onError: (error: Error) => void = () => undefined,
): NetworkProxy {
  const resolve = options.resolve ?? systemResolve;
  const sockets = new Set<Duplex>();

  /** The address to connect to, or null (reported) when the host may not be reached. */
  const admit = async (host: string, port: number): Promise<string | null> => {
    let address: string | null = null;
    if (options.allows(host, port)) {
      try {
        address = await resolve(host);
      } catch {
        address = null;
      }
      if (address === null) return null;
    }
    const own = address !== null && isLoopback(address) && options.ownPorts().includes(port);
    if (address === null || own) {
      options.onBlocked({ host, port, own });
      return null;
    }
    return address;
  };

  const refuse = (host: string) => `${blockedLine(host)}\n`;

  const onConnect = (req: IncomingMessage, client: Duplex, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    const target = splitTarget(req.url ?? '', 443);
    if (target === null) {
      client.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
      return;
    }
    void admit(target.host, target.port).then((address) => {
      if (address === null) {
        const body = refuse(target.host);
        client.end(
          `HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        );
        return;
      }
      const upstream: Socket = connect(target.port, address);
      sockets.add(upstream);
      upstream.on('close', () => sockets.delete(upstream));
      upstream.on('connect', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      upstream.on('error', () => {
        if (upstream.connecting) client.end('HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\n\r\n');
        else client.destroy();
      });
      client.on('close', () => upstream.destroy());
    });
  };

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res
        .writeHead(400, { 'Content-Type': 'text/plain' })
        .end('The sandbox proxy forwards absolute http:// URLs only.\n');
      return;
    }
    if (url.protocol !== 'http:') {
      res
        .writeHead(400, { 'Content-Type': 'text/plain' })
        .end('The sandbox proxy forwards http:// URLs; HTTPS goes through CONNECT.\n');
      return;
    }
    const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    const port = url.port === '' ? 80 : Number(url.port);
    void admit(host, port).then((address) => {
      if (address === null) {
        res.writeHead(403, { 'Content-Type': 'text/plain', Connection: 'close' }).end(refuse(host));
        return;
      }
      const headers = { ...req.headers };
      delete headers['proxy-connection'];
      delete headers['proxy-authorization'];
      const upstream = httpRequest(
        { host: address, port, method: req.method, path: `${url.pathname}${url.search}`, headers, setHost: false },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => {
        if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' });
        res.end();
      });
      req.pipe(upstream);
    });
  };

  const server: Server = createServer(onRequest);
  server.on('connect', onConnect);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('error', onError);
  server.listen(options.socketPath);
  return {
    close: () =>
      new Promise<void>((closed) => {
        for (const socket of sockets) socket.destroy();
        if (!server.listening) closed();
        else server.close(() => closed());
      }),
  };
}
