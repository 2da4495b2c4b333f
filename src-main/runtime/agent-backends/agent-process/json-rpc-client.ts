import { z } from 'zod';

/** A message from the app-server: a response, a server→client request, or a notification. */
const responseSchema = z.object({
  id: z.union([z.number(), z.string()]),
  result: z.unknown().optional(),
  error: z.object({ code: z.number(), message: z.string() }).passthrough().optional(),
});
const requestSchema = z.object({
  id: z.union([z.number(), z.string()]),
  method: z.string(),
  params: z.unknown().optional(),
});
const notificationSchema = z.object({ method: z.string(), params: z.unknown().optional() });

export interface ServerNotification {
  /** The instance's own running number, from 1. */
  readonly seq: number;
  readonly method: string;
  readonly params: unknown;
}

export interface ServerRequest {
  readonly seq: number;
  readonly id: number | string;
  readonly method: string;
  readonly params: unknown;
}

export class JsonRpcError extends Error {
  constructor(
    readonly code: number | 'timeout' | 'closed',
    message: string,
  ) {
    super(message);
    this.name = 'JsonRpcError';
  }
}

interface Pending {
  readonly method: string;
  resolve(result: unknown): void;
  reject(error: Error): void;
  readonly timer: NodeJS.Timeout;
}

/** How failures name the other side: its name ("Codex") and its process ("the Codex app-server"). */
export interface RpcPeer {
  readonly name: string;
  readonly process: string;
}

/**
 * JSON-RPC over a native agent's stdio, one object per line. Every request carries a bound; server
 * requests (they have `method` and `id`, ids counting from 0 on their own) and notifications are
 * numbered in arrival order and handed to `onMessage`.
 */
export class JsonRpcClient {
  private nextId = 1;
  private seq = 0;
  private readonly pending = new Map<number, Pending>();
  private closedWith: string | null = null;

  constructor(
    private readonly peer: RpcPeer,
    private readonly write: (line: string) => boolean,
    private readonly onMessage: (
      message: { kind: 'notification'; value: ServerNotification } | { kind: 'request'; value: ServerRequest },
    ) => void,
    private readonly onMalformed: (line: string) => void = () => {},
  ) {}

  /** Feed one line read from stdout. */
  receive(line: string): void {
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      return this.onMalformed(line);
    }
    const request = requestSchema.safeParse(raw);
    if (request.success) {
      this.seq += 1;
      return this.onMessage({
        kind: 'request',
        value: { seq: this.seq, id: request.data.id, method: request.data.method, params: request.data.params },
      });
    }
    const notification = notificationSchema.safeParse(raw);
    if (notification.success) {
      this.seq += 1;
      return this.onMessage({
        kind: 'notification',
        value: { seq: this.seq, method: notification.data.method, params: notification.data.params },
      });
    }
    const response = responseSchema.safeParse(raw);
    if (!response.success || typeof response.data.id !== 'number') return this.onMalformed(line);
    const waiter = this.pending.get(response.data.id);
    if (waiter === undefined) return;
    this.pending.delete(response.data.id);
    clearTimeout(waiter.timer);
    if (response.data.error !== undefined)
      waiter.reject(new JsonRpcError(response.data.error.code, `${waiter.method}: ${response.data.error.message}`));
    else waiter.resolve(response.data.result);
  }

  /** Sends a request and waits for its result, at most `boundMs`. */
  request(method: string, params: unknown, boundMs: number): Promise<unknown> {
    if (this.closedWith !== null) return Promise.reject(new JsonRpcError('closed', `${method}: ${this.closedWith}`));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(
          new JsonRpcError(
            'timeout',
            `${this.peer.name} did not answer ${method} within ${boundMs < 1000 ? `${boundMs} ms` : `${boundMs / 1000} s`}.`,
          ),
        );
      }, boundMs);
      this.pending.set(id, { method, resolve, reject, timer });
      if (!this.write(JSON.stringify({ id, method, params }))) {
        clearTimeout(timer);
        this.pending.delete(id);
        reject(new JsonRpcError('closed', `${method}: ${this.peer.process} is not running.`));
      }
    });
  }

  notify(method: string, params?: unknown): void {
    this.write(JSON.stringify(params === undefined ? { method } : { method, params }));
  }

  /** Answers a server→client request. */
  respond(id: number | string, result: unknown): boolean {
    return this.write(JSON.stringify({ id, result }));
  }

  /** Fails every pending request (the process went away). */
  close(reason: string): void {
    this.closedWith = reason;
    for (const [id, waiter] of this.pending) {
      clearTimeout(waiter.timer);
      waiter.reject(new JsonRpcError('closed', `${waiter.method}: ${reason}`));
      this.pending.delete(id);
    }
  }
}
