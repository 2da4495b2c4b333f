import { chmodSync, lstatSync, unlinkSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { LOCAL_SOCKET_NAME, negotiateProtocol } from '../../../src-shared/protocol';
import { localHelloMessage, requestMessage } from '../../../src-shared/protocol-messages';
import type { Logger } from '../../runtime/ports/ports';
import type { Host } from '../create-host';

/** Unix socket paths are limited (108 bytes on Linux, 104 on macOS); longer ones cannot be bound. */
const MAX_SOCKET_PATH_BYTES = 103;
const MAX_LINE_BYTES = 8 * 1024 * 1024;
const MAX_BUFFERED_BYTES = 32 * 1024 * 1024;

export interface LocalSocketListenerOptions {
  readonly host: Host;
  readonly dataDir: string;
  readonly logger: Logger;
  /** The page to open (with the token), told to local clients so a second start can point there; null for the desktop app's host. */
  readonly pageUrl: string | null;
}

export interface LocalSocketListener {
  /** The socket's path, or null when none could be made here (the reason was logged). */
  readonly path: string | null;
  close(): Promise<void>;
}

export function localSocketPath(dataDir: string): string {
  return join(dataDir, LOCAL_SOCKET_NAME);
}

/**
 * The same operations protocol as the WebSocket (ARCHITECTURE.md §3), one JSON message a line over a
 * Unix socket in the data directory. Its authentication is the file's: the socket is made with mode
 * 0600 (only this user may connect) by the host that holds the data directory's lock, so the hello
 * carries no token. A socket left by a host that died is replaced (whoever holds the lock owns it).
 */
export async function startLocalSocketListener(options: LocalSocketListenerOptions): Promise<LocalSocketListener> {
  const { logger } = options;
  const path = localSocketPath(options.dataDir);
  if (process.platform === 'win32' || Buffer.byteLength(path) > MAX_SOCKET_PATH_BYTES) {
    logger.warn('No local socket for editors (cairn acp): its path is too long or not supported here', { path });
    return { path: null, close: async () => {} };
  }
  removeStaleSocket(path);
  const sockets = new Set<Socket>();
  let counter = 0;
  const server: Server = createServer((socket) => {
    counter += 1;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    serveLocalConnection(options, socket, `local-${counter}`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // The socket is born 0600: no moment in which another user could connect before a chmod.
    const previous = process.umask(0o177);
    try {
      server.listen(path, () => resolve());
    } finally {
      process.umask(previous);
    }
  });
  chmodSync(path, 0o600);
  server.on('error', (error) => logger.warn('Local socket error', { error: String(error) }));
  return {
    path,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      removeStaleSocket(path);
    },
  };
}

function removeStaleSocket(path: string) {
  try {
    if (lstatSync(path).isSocket()) unlinkSync(path);
  } catch {
    // Not there: nothing to remove.
  }
}

function serveLocalConnection(options: LocalSocketListenerOptions, socket: Socket, connectionId: string) {
  const { host, logger } = options;
  let unsubscribe: (() => void) | null = null;
  let buffered = '';
  const send = (message: unknown) => {
    if (socket.destroyed) return;
    if (socket.writableLength > MAX_BUFFERED_BYTES) {
      socket.destroy(); // a client this far behind reconnects and re-reads, as on the WebSocket
      return;
    }
    socket.write(`${JSON.stringify(message)}\n`);
  };
  const onLine = (line: string) => {
    const parsed = parseJson(line);
    if (unsubscribe === null) {
      const hello = localHelloMessage.safeParse(parsed);
      const protocol = hello.success
        ? negotiateProtocol(hello.data.hello.protocol.min, hello.data.hello.protocol.max)
        : null;
      if (protocol === null) {
        send({ refused: hello.success ? 'No protocol version in common' : 'Expected a hello message' });
        socket.end();
        return;
      }
      send({
        welcome: { protocol, hostEpoch: host.info.hostEpoch, dataDir: host.info.dataDir, pageUrl: options.pageUrl },
      });
      unsubscribe = host.subscribe((event) => send({ event }));
      return;
    }
    const request = requestMessage.safeParse(parsed);
    if (!request.success) {
      send({
        id: null,
        ok: false,
        error: { code: 'invalid_input', message: 'A request is {"id","op","input"} as JSON.' },
      });
      return;
    }
    const { id, op, input } = request.data;
    host
      .dispatch(op, input, { transport: 'local-socket', connectionId })
      .then((outcome) => send({ id, ...outcome }))
      .catch((error: unknown) => {
        logger.error('Dispatch failed', { op, error: String(error) });
        send({ id, ok: false, error: { code: 'internal_failure', message: 'Something went wrong inside Cairn.' } });
      });
  };
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    if (buffered.length > MAX_LINE_BYTES && !buffered.includes('\n')) {
      socket.destroy();
      return;
    }
    let newline = buffered.indexOf('\n');
    while (newline >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (line.trim() !== '') onLine(line);
      newline = buffered.indexOf('\n');
    }
  });
  socket.on('close', () => unsubscribe?.());
  socket.on('error', () => {});
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
