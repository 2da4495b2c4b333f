import type { Outcome } from '../../src-shared/errors';
import { fail } from '../../src-shared/errors';
import type { ChangeEvent } from '../../src-shared/events';
import type { OperationInput, OperationName, OperationResult } from '../../src-shared/operations';
import { QUERY_OPERATIONS } from '../../src-shared/operations/operation-modes';
import { CLOSE_CODES, PROTOCOL_MIN, PROTOCOL_VERSION } from '../../src-shared/protocol';
import type { ConnectionState, HostLink } from './host-link';
import type { BackoffOptions } from './reconnect-backoff';
import { DEFAULT_BACKOFF, reconnectDelay } from './reconnect-backoff';
import { decodeHostFrame } from './wire-messages';

/** What the link needs from a socket; `browserSocketFactory` adapts the DOM WebSocket, tests adapt `ws`. */
export interface SocketHandlers {
  open(): void;
  message(text: string): void;
  close(code: number, reason: string): void;
}
export interface SocketHandle {
  send(text: string): void;
  close(code?: number, reason?: string): void;
}
export type SocketFactory = (url: string, handlers: SocketHandlers) => SocketHandle;

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface WebSocketHostLinkOptions {
  readonly url: string;
  readonly token: string;
  readonly openSocket: SocketFactory;
  readonly timers?: Timers;
  /** How long a request may wait (for the line to come back, then for its answer) before it fails. */
  readonly requestTimeoutMs?: number;
  /** How long a new socket may take to be welcomed before it is dropped and retried. */
  readonly helloTimeoutMs?: number;
  readonly backoff?: BackoffOptions;
  readonly random?: () => number;
  /** The host refused the credential (a paired device's, revoked now or before): called once the link has given up. */
  readonly onCredentialRefused?: () => void;
}

interface PendingRequest {
  readonly frame: string;
  readonly mode: 'query' | 'command';
  sent: boolean;
  readonly resolve: (outcome: Outcome<unknown>) => void;
  readonly timer: unknown;
}

const REFUSALS: ReadonlyMap<number, string> = new Map([
  [
    CLOSE_CODES.badToken,
    'This tab’s access token is not the one the running Cairn host accepts (it was started with another token, or with --new-token). Open the address it printed, ending in #token=…; the host keeps its token in the host-token file of its data directory.',
  ],
  [
    CLOSE_CODES.protocolUnsupported,
    'This window and the Cairn host speak different protocol versions. Update one of them.',
  ],
  [CLOSE_CODES.badHandshake, 'The Cairn host did not accept this window’s greeting.'],
  [
    CLOSE_CODES.deviceRevoked,
    'This device was signed out: it was revoked on the Cairn host. To use it again, pair it again from the desktop.',
  ],
]);

const NOT_REACHABLE =
  'Cairn is not reachable right now, so this was not done. It will work again once the connection is back.';
const DROPPED =
  'The connection to Cairn dropped before it confirmed this, so it may or may not have happened. Check, then try again.';

/**
 * The Bridge over the headless host's WebSocket (ARCHITECTURE.md §3): hello/welcome with the token,
 * requests matched to responses by id, pushed events. It reconnects by itself with backoff; requests
 * made while the line is down wait for it (up to a timeout). Queries caught in flight by a drop are
 * sent again; commands are not (they might already have happened) and fail with a clear message.
 */
export class WebSocketHostLink implements HostLink {
  private readonly timers: Timers;
  private readonly requestTimeoutMs: number;
  private readonly helloTimeoutMs: number;
  private readonly pending = new Map<number, PendingRequest>();
  private readonly eventListeners = new Set<(event: ChangeEvent) => void>();
  private readonly stateListeners = new Set<(state: ConnectionState) => void>();
  private state: ConnectionState = { status: 'connecting', hostEpoch: null, generation: 0, problem: null };
  private socket: SocketHandle | null = null;
  private welcomed = false;
  private attempt = 0;
  private nextRequestId = 1;
  private helloTimer: unknown = null;
  private reconnectTimer: unknown = null;
  private closed = false;

  constructor(private readonly options: WebSocketHostLinkOptions) {
    this.timers = options.timers ?? {
      setTimeout: (cb, ms) => setTimeout(cb, ms),
      clearTimeout: (h) => clearTimeout(h as number),
    };
    this.requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
    this.helloTimeoutMs = options.helloTimeoutMs ?? 10_000;
    this.connect();
  }

  invoke<N extends OperationName>(op: N, input: OperationInput<N>): Promise<Outcome<OperationResult<N>>> {
    return new Promise<Outcome<unknown>>((resolve) => {
      if (this.state.status === 'failed' || this.closed) {
        resolve(fail('operation_unavailable', this.state.problem ?? NOT_REACHABLE));
        return;
      }
      const id = this.nextRequestId++;
      const timer = this.timers.setTimeout(() => {
        const request = this.pending.get(id);
        if (request === undefined) return;
        this.pending.delete(id);
        request.resolve(
          fail(
            'operation_unavailable',
            request.sent ? 'Cairn did not answer in time. It may still be working on it.' : NOT_REACHABLE,
          ),
        );
      }, this.requestTimeoutMs);
      const request: PendingRequest = {
        frame: JSON.stringify({ id, op, input }),
        mode: QUERY_OPERATIONS.has(op) ? 'query' : 'command',
        sent: false,
        resolve,
        timer,
      };
      this.pending.set(id, request);
      if (this.welcomed) this.send(request);
    }) as Promise<Outcome<OperationResult<N>>>;
  }

  subscribe(listener: (event: ChangeEvent) => void): () => void {
    this.eventListeners.add(listener);
    return () => {
      this.eventListeners.delete(listener);
    };
  }

  connection(): ConnectionState {
    return this.state;
  }

  onConnectionChange(listener: (state: ConnectionState) => void): () => void {
    this.stateListeners.add(listener);
    return () => {
      this.stateListeners.delete(listener);
    };
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.clearTimer('helloTimer');
    this.clearTimer('reconnectTimer');
    const socket = this.socket;
    this.socket = null;
    this.welcomed = false;
    socket?.close(1000, 'Window closed');
    this.failAll('This window disconnected from Cairn.');
  }

  private connect(): void {
    if (this.closed) return;
    const handlers: SocketHandlers = {
      open: () => {
        if (this.socket !== handle) return;
        const hello = { hello: { token: this.options.token, protocol: { min: PROTOCOL_MIN, max: PROTOCOL_VERSION } } };
        handle.send(JSON.stringify(hello));
      },
      message: (text) => {
        if (this.socket === handle) this.receive(text);
      },
      close: (code) => {
        if (this.socket === handle) this.dropped(code);
      },
    };
    const handle: SocketHandle = this.options.openSocket(this.options.url, handlers);
    this.socket = handle;
    this.helloTimer = this.timers.setTimeout(() => {
      this.helloTimer = null;
      if (this.socket !== handle || this.welcomed) return;
      handle.close(4000, 'No welcome in time');
      this.dropped(CLOSE_CODES.handshakeTimeout);
    }, this.helloTimeoutMs);
  }

  private receive(text: string): void {
    const frame = decodeHostFrame(text);
    switch (frame.type) {
      case 'welcome': {
        this.clearTimer('helloTimer');
        this.welcomed = true;
        this.attempt = 0;
        this.setState({
          status: 'open',
          hostEpoch: frame.hostEpoch,
          generation: this.state.generation + 1,
          problem: null,
        });
        for (const request of this.pending.values()) if (!request.sent) this.send(request);
        return;
      }
      case 'response': {
        if (typeof frame.id !== 'number') return;
        const request = this.pending.get(frame.id);
        if (request === undefined) return;
        this.pending.delete(frame.id);
        this.timers.clearTimeout(request.timer);
        request.resolve(frame.ok ? { ok: true, result: frame.result } : { ok: false, error: frame.error });
        return;
      }
      case 'event': {
        if (!this.welcomed) return;
        for (const listener of this.eventListeners) {
          try {
            listener(frame.event);
          } catch (error) {
            console.error('A change-event listener failed', error);
          }
        }
        return;
      }
      case 'ignored':
        return;
    }
  }

  private dropped(code: number): void {
    this.socket = null;
    this.welcomed = false;
    this.clearTimer('helloTimer');
    for (const [id, request] of this.pending) {
      if (!request.sent) continue;
      if (request.mode === 'query') {
        request.sent = false;
      } else {
        this.pending.delete(id);
        this.timers.clearTimeout(request.timer);
        request.resolve(fail('operation_unavailable', DROPPED));
      }
    }
    const refusal = REFUSALS.get(code);
    if (refusal !== undefined) {
      this.setState({ ...this.state, status: 'failed', problem: refusal });
      this.failAll(refusal);
      if (code === CLOSE_CODES.badToken || code === CLOSE_CODES.deviceRevoked) this.options.onCredentialRefused?.();
      return;
    }
    if (this.closed) return;
    this.setState({
      ...this.state,
      status: this.state.generation === 0 ? 'connecting' : 'reconnecting',
      problem: null,
    });
    const delay = reconnectDelay(this.attempt, this.options.backoff ?? DEFAULT_BACKOFF, this.options.random);
    this.attempt += 1;
    this.reconnectTimer = this.timers.setTimeout(() => {
      this.reconnectTimer = null;
      this.connect();
    }, delay);
  }

  private send(request: PendingRequest): void {
    if (this.socket === null) return;
    try {
      this.socket.send(request.frame);
      request.sent = true;
    } catch {
      // The socket is closing; its close handler re-queues or fails the request.
    }
  }

  private failAll(message: string): void {
    for (const request of this.pending.values()) {
      this.timers.clearTimeout(request.timer);
      request.resolve(fail('operation_unavailable', message));
    }
    this.pending.clear();
  }

  private setState(next: ConnectionState): void {
    this.state = next;
    for (const listener of this.stateListeners) listener(next);
  }

  private clearTimer(name: 'helloTimer' | 'reconnectTimer'): void {
    if (this[name] !== null) this.timers.clearTimeout(this[name]);
    this[name] = null;
  }
}

/** Adapts the browser's WebSocket to the link's socket interface. */
export function browserSocketFactory(): SocketFactory {
  return (url, handlers) => {
    const socket = new WebSocket(url);
    socket.onopen = () => handlers.open();
    socket.onmessage = (event: MessageEvent) => {
      if (typeof event.data === 'string') handlers.message(event.data);
    };
    socket.onclose = (event: CloseEvent) => handlers.close(event.code, event.reason);
    return {
      send: (text) => socket.send(text),
      close: (code, reason) => socket.close(code, reason),
    };
  };
}
