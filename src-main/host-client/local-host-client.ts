import { lstatSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import type { Outcome } from '../../src-shared/errors';
import type { ChangeEvent } from '../../src-shared/events';
import type { OperationInput, OperationName, OperationResult } from '../../src-shared/operations';
import { PROTOCOL_MIN, PROTOCOL_VERSION } from '../../src-shared/protocol';

/** What the host says when a local client has said hello. */
export interface LocalWelcome {
  readonly protocol: number;
  readonly hostEpoch: string;
  readonly dataDir: string;
  /** The page to open in a browser, with the token; null when the host is the desktop app's. */
  readonly pageUrl: string | null;
}

/** A client of the host's local socket (`host.sock`): the operations protocol, one JSON message a line. */
export interface LocalHostClient {
  readonly welcome: LocalWelcome;
  invoke<N extends OperationName>(op: N, input: OperationInput<N>): Promise<Outcome<OperationResult<N>>>;
  /** Change events as the host pushes them; returns how to stop listening. */
  onEvent(listener: (event: ChangeEvent) => void): () => void;
  /** Settles when the socket closes (the host stopped, or `close()`). */
  readonly closed: Promise<void>;
  close(): void;
}

/** Why no host answered on the socket: none is there (`absent`), or it is not one to trust (`refused`). */
export class LocalHostUnavailable extends Error {
  constructor(
    readonly reason: 'absent' | 'refused',
    message: string,
  ) {
    super(message);
    this.name = 'LocalHostUnavailable';
  }
}

/**
 * Connects to the host that owns a data directory through its socket. The socket must be a socket
 * owned by this user (another user's file in the way is refused, never talked to).
 */
export async function connectLocalHost(socketPath: string): Promise<LocalHostClient> {
  checkOwnSocket(socketPath);
  const socket = await new Promise<Socket>((resolve, reject) => {
    const attempt = connect(socketPath);
    attempt.once('connect', () => resolve(attempt));
    attempt.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT' || error.code === 'ECONNREFUSED'
          ? new LocalHostUnavailable('absent', `No Cairn host answers on ${socketPath}.`)
          : error,
      ),
    );
  });
  socket.setEncoding('utf8');
  const pending = new Map<number, (message: Outcome<unknown>) => void>();
  const listeners = new Set<(event: ChangeEvent) => void>();
  let nextId = 0;
  let onWelcome: ((welcome: LocalWelcome) => void) | null = null;
  let onRefused: ((error: Error) => void) | null = null;
  let buffered = '';

  const closed = new Promise<void>((resolve) => {
    socket.once('close', () => {
      for (const settle of pending.values())
        settle({ ok: false, error: { code: 'internal_failure', message: 'The Cairn host closed the connection.' } });
      pending.clear();
      onRefused?.(new LocalHostUnavailable('absent', 'The Cairn host closed the connection before welcoming it.'));
      resolve();
    });
  });
  socket.on('error', () => {});
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    let newline = buffered.indexOf('\n');
    while (newline >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      newline = buffered.indexOf('\n');
      handle(JSON.parse(line) as Record<string, unknown>);
    }
  });
  const handle = (message: Record<string, unknown>) => {
    if ('welcome' in message) return onWelcome?.(message.welcome as LocalWelcome);
    if ('refused' in message) return onRefused?.(new LocalHostUnavailable('refused', String(message.refused)));
    if ('event' in message) {
      for (const listener of listeners) listener(message.event as ChangeEvent);
      return;
    }
    const { id, ...outcome } = message as { id: number } & Outcome<unknown>;
    const settle = pending.get(id);
    pending.delete(id);
    settle?.(outcome);
  };

  const welcome = await new Promise<LocalWelcome>((resolve, reject) => {
    onWelcome = resolve;
    onRefused = reject;
    socket.write(`${JSON.stringify({ hello: { protocol: { min: PROTOCOL_MIN, max: PROTOCOL_VERSION } } })}\n`);
  });
  onRefused = null;

  return {
    welcome,
    closed,
    invoke(op, input) {
      nextId += 1;
      const id = nextId;
      return new Promise((resolve) => {
        if (socket.destroyed) {
          resolve({ ok: false, error: { code: 'internal_failure', message: 'The Cairn host is not connected.' } });
          return;
        }
        pending.set(id, resolve as (message: Outcome<unknown>) => void);
        socket.write(`${JSON.stringify({ id, op, input })}\n`);
      });
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      socket.end();
      socket.destroy();
    },
  };
}

function checkOwnSocket(socketPath: string) {
  let stats;
  try {
    stats = lstatSync(socketPath);
  } catch {
    throw new LocalHostUnavailable('absent', `No Cairn host socket at ${socketPath}.`);
  }
  if (!stats.isSocket()) throw new LocalHostUnavailable('refused', `${socketPath} is not a socket.`);
  const uid = process.getuid?.();
  if (uid !== undefined && stats.uid !== uid)
    throw new LocalHostUnavailable('refused', `${socketPath} belongs to another user; Cairn will not talk to it.`);
}
