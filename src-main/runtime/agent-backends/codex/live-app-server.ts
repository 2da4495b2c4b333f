import { AgentProcess, type AgentLaunch } from '../agent-process/agent-process';
import { initializeResultSchema } from './codex-protocol';
import { JsonRpcClient, type ServerNotification, type ServerRequest } from '../agent-process/json-rpc-client';

const CODEX_PEER = { name: 'Codex', process: 'the Codex app-server' };

export type LiveMessage =
  | { readonly kind: 'notification'; readonly value: ServerNotification }
  | { readonly kind: 'request'; readonly value: ServerRequest }
  | { readonly kind: 'exited'; readonly code: number | null; readonly signal: string | null };

/** Bounds on every await on Codex, in milliseconds. */
export interface CodexBounds {
  readonly startMs: number;
  readonly requestMs: number;
  readonly interruptMs: number;
  readonly killGraceMs: number;
  readonly killConfirmMs: number;
  /** How long Codex may take to start its own continuation turn once its thread goal is active. */
  readonly continuationMs: number;
}

export const DEFAULT_BOUNDS: CodexBounds = {
  startMs: 20_000,
  requestMs: 20_000,
  interruptMs: 1_500,
  killGraceMs: 500,
  killConfirmMs: 2_000,
  continuationMs: 5_000,
};

/**
 * One running app-server instance: its process, its JSON-RPC client, and a queue of what it said,
 * read by at most one run at a time. Messages that arrive while no run reads are kept until the
 * next read (`drain` drops them when a run starts a fresh Codex turn).
 */
export class LiveAppServer {
  readonly rpc: JsonRpcClient;
  readonly process: AgentProcess;
  private readonly queue: LiveMessage[] = [];
  private wake: (() => void) | null = null;
  private diverted: ((notification: ServerNotification) => boolean) | null = null;
  threadId: string | null = null;
  /** The Codex turn in progress, if any. */
  activeTurnId: string | null = null;

  constructor(
    readonly instanceId: string,
    launch: AgentLaunch,
    readonly launchKey: string,
  ) {
    this.process = new AgentProcess(launch, (line) => this.rpc.receive(line));
    this.rpc = new JsonRpcClient(
      CODEX_PEER,
      (line) => this.process.send(line),
      (message) => this.push(message),
    );
    void this.process.exited.then(({ code, signal }) => {
      this.rpc.close('the Codex app-server exited');
      this.push({ kind: 'exited', code, signal });
    });
  }

  async initialize(version: string, bounds: CodexBounds): Promise<void> {
    const result = await this.rpc.request(
      'initialize',
      {
        clientInfo: { name: 'cairn', title: 'Cairn', version },
        capabilities: { experimentalApi: false, requestAttestation: false },
      },
      bounds.startMs,
    );
    initializeResultSchema.parse(result);
    this.rpc.notify('initialized');
  }

  /** The next message, or null when `signal` aborts first. */
  async next(signal: AbortSignal): Promise<LiveMessage | null> {
    for (;;) {
      const message = this.queue.shift();
      if (message !== undefined) return message;
      if (signal.aborted) return null;
      await new Promise<void>((resolve) => {
        const done = () => {
          signal.removeEventListener('abort', done);
          this.wake = null;
          resolve();
        };
        this.wake = done;
        signal.addEventListener('abort', done, { once: true });
      });
    }
  }

  /** Returns a message read too early to the front of the queue, for the next reader. */
  putBack(message: LiveMessage): void {
    this.queue.unshift(message);
  }

  /** Drops what no run read (events of a turn that is over). */
  drain(): void {
    this.queue.length = 0;
  }

  /**
   * Notifications `take` accepts are handled as they arrive, never queued for a run: what Codex says
   * about a command that outlived its turn, when no turn may be read. Ones already queued are offered too.
   */
  divert(take: (notification: ServerNotification) => boolean): void {
    this.diverted = take;
    const kept = this.queue.filter((message) => message.kind !== 'notification' || !take(message.value));
    this.queue.splice(0, this.queue.length, ...kept);
  }

  private push(message: LiveMessage): void {
    if (message.kind === 'notification' && this.diverted?.(message.value) === true) return;
    this.queue.push(message);
    this.wake?.();
  }
}
