import WebSocket from 'ws';
import type { Outcome } from '../../src-shared/errors';
import type { ChangeEvent } from '../../src-shared/events';
import type { OperationInput, OperationName, OperationResult } from '../../src-shared/operations';
import { waitFor } from './wait-for';

export interface ProtocolClient {
  readonly welcome: { protocol: number; hostEpoch: string };
  readonly events: ChangeEvent[];
  invoke<N extends OperationName>(op: N, input: OperationInput<N>): Promise<Outcome<OperationResult<N>>>;
  call<N extends OperationName>(op: N, input: OperationInput<N>): Promise<OperationResult<N>>;
  /** Sends raw text, for malformed-input tests; resolves with the next non-event message. */
  sendRaw(text: string): Promise<unknown>;
  readonly socket: WebSocket;
  close(): Promise<void>;
}

export interface ConnectOptions {
  readonly token: string;
  readonly protocol?: { min: number; max: number };
  readonly origin?: string;
  /** For wss://: the certificate to trust (a host's self-signed one). */
  readonly ca?: string;
  /** Keep every change event in `events` (the default); a long benchmark turns it off. */
  readonly keepEvents?: boolean;
}

/** Thrown when the socket was already closed: the request was never sent, so sending it again is safe. */
export class SocketClosed extends Error {
  constructor() {
    super('Socket is closed');
  }
}

/** Why the host closed a socket during the handshake. */
export class HandshakeRefused extends Error {
  constructor(
    readonly closeCode: number,
    readonly reason: string,
  ) {
    super(`Handshake refused: ${closeCode} ${reason}`);
  }
}

/** A minimal client of the WebSocket protocol (ARCHITECTURE.md §3), for tests and tools. */
export async function connectProtocolClient(url: string, options: ConnectOptions): Promise<ProtocolClient> {
  const socket = new WebSocket(url, {
    ...(options.origin === undefined ? {} : { origin: options.origin }),
    ...(options.ca === undefined ? {} : { ca: options.ca }),
  });
  const events: ChangeEvent[] = [];
  const pending = new Map<string | number, (message: unknown) => void>();
  const rawWaiters: Array<(message: unknown) => void> = [];
  let nextId = 0;

  const welcome = await new Promise<{ protocol: number; hostEpoch: string }>((resolve, reject) => {
    socket.once('error', reject);
    socket.once('unexpected-response', (_request, response) => reject(new Error(`HTTP ${response.statusCode}`)));
    socket.once('open', () => {
      socket.send(
        JSON.stringify({ hello: { token: options.token, protocol: options.protocol ?? { min: 1, max: 1 } } }),
      );
    });
    socket.once('close', (code, reason) => reject(new HandshakeRefused(code, reason.toString())));
    socket.once('message', (data) => {
      const message = JSON.parse(data.toString()) as { welcome?: { protocol: number; hostEpoch: string } };
      if (message.welcome === undefined) reject(new Error(`Expected welcome, got ${data.toString()}`));
      else resolve(message.welcome);
    });
  });
  socket.removeAllListeners('close');
  socket.removeAllListeners('error');
  socket.on('error', () => {});
  // A request in flight when the socket closes gets no answer: say so rather than wait for ever.
  socket.on('close', (code, reason) => {
    for (const [id, resolve] of pending) {
      pending.delete(id);
      resolve({
        id,
        ok: false,
        error: { code: 'socket_closed', message: `The socket closed (${code} ${reason.toString()})` },
      });
    }
  });

  socket.on('message', (data) => {
    const message = JSON.parse(data.toString()) as { event?: ChangeEvent; id?: string | number | null };
    if (message.event !== undefined) {
      if (options.keepEvents !== false) events.push(message.event);
      return;
    }
    const resolve = message.id === undefined || message.id === null ? undefined : pending.get(message.id);
    if (resolve !== undefined && message.id !== undefined && message.id !== null) {
      pending.delete(message.id);
      resolve(message);
    } else {
      rawWaiters.shift()?.(message);
    }
  });

  const client: ProtocolClient = {
    welcome,
    events,
    socket,
    invoke(op, input) {
      nextId += 1;
      const id = nextId;
      return new Promise((resolve, reject) => {
        if (socket.readyState !== WebSocket.OPEN) return reject(new SocketClosed());
        pending.set(id, (message) => {
          const { id: _id, ...outcome } = message as { id: number } & Outcome<OperationResult<typeof op>>;
          resolve(outcome as Outcome<OperationResult<typeof op>>);
        });
        socket.send(JSON.stringify({ id, op, input }));
      });
    },
    async call(op, input) {
      const outcome = await client.invoke(op, input);
      if (!outcome.ok) throw new Error(`${op} failed: ${outcome.error.code}: ${outcome.error.message}`);
      return outcome.result;
    },
    sendRaw(text) {
      return new Promise((resolve) => {
        rawWaiters.push(resolve);
        socket.send(text);
      });
    },
    async close() {
      if (socket.readyState === WebSocket.CLOSED) return;
      socket.close();
      await waitFor(() => socket.readyState === WebSocket.CLOSED, { message: 'socket to close' });
    },
  };
  return client;
}
