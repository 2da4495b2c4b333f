import type { SessionState } from './codex-session-state';

/** How long an idle app-server stays warm, and how many stay warm at most. */
export interface WarmLimits {
  readonly idleMs: number;
  readonly maxWarm: number;
}

export const DEFAULT_WARM_LIMITS: WarmLimits = { idleMs: 10 * 60_000, maxWarm: 4 };

/**
 * Keeps the sessions' warm app-servers bounded: one idle for `idleMs` is stopped, and when more than
 * `maxWarm` would be warm the least recently used idle one is. Never one that a run is reading, that
 * is in a Codex turn, that waits for an approval or answer, or whose commands still run. The session's
 * next turn starts a new app-server that resumes the same thread.
 */
export class WarmAppServers {
  private readonly runs = new Map<string, number>();
  private readonly used = new Map<string, number>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly stopping = new Map<string, Promise<void>>();
  private tick = 0;

  constructor(
    private readonly limits: WarmLimits,
    private readonly states: ReadonlyMap<string, SessionState>,
    /** Ends the session's app-server (the backend's `retire`). */
    private readonly stop: (sessionId: string, state: SessionState) => Promise<void>,
  ) {}

  /** Runs `events` as a use of the session's app-server: it is not stopped meanwhile, and its idle time starts when they end. */
  async *use<T>(sessionId: string, events: AsyncIterable<T>): AsyncGenerator<T> {
    this.runs.set(sessionId, (this.runs.get(sessionId) ?? 0) + 1);
    clearTimeout(this.timers.get(sessionId));
    try {
      // One being stopped is gone before the run may start another on the same thread.
      await this.stopping.get(sessionId);
      if (!this.states.has(sessionId)) this.makeRoom(this.limits.maxWarm - 1);
      yield* events;
    } finally {
      const left = (this.runs.get(sessionId) ?? 1) - 1;
      if (left === 0) this.runs.delete(sessionId);
      else this.runs.set(sessionId, left);
      this.used.set(sessionId, ++this.tick);
      this.schedule(sessionId);
      this.makeRoom(this.limits.maxWarm);
    }
  }

  /** Forgets every timer (host shutdown). */
  close(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private schedule(sessionId: string): void {
    clearTimeout(this.timers.get(sessionId));
    const timer = setTimeout(() => {
      this.timers.delete(sessionId);
      const state = this.states.get(sessionId);
      if (state === undefined) return;
      if (this.busy(sessionId, state)) this.schedule(sessionId);
      else this.retire(sessionId, state);
    }, this.limits.idleMs);
    timer.unref();
    this.timers.set(sessionId, timer);
  }

  /** Stops the least recently used idle app-servers until at most `room` are warm. */
  private makeRoom(room: number): void {
    const idle = [...this.states.entries()].filter(
      ([sessionId, state]) => !this.busy(sessionId, state) && !this.stopping.has(sessionId),
    );
    idle.sort(([a], [b]) => (this.used.get(a) ?? 0) - (this.used.get(b) ?? 0));
    let warm = this.states.size;
    for (const [sessionId, state] of idle) {
      if (warm <= Math.max(room, 0)) return;
      this.retire(sessionId, state);
      warm -= 1;
    }
  }

  private busy(sessionId: string, state: SessionState): boolean {
    return (
      this.runs.has(sessionId) || state.live.activeTurnId !== null || state.pending !== null || state.background.running
    );
  }

  private retire(sessionId: string, state: SessionState): void {
    clearTimeout(this.timers.get(sessionId));
    this.timers.delete(sessionId);
    const stopped = this.stop(sessionId, state)
      .catch(() => undefined) // retire records its own failures (quarantine)
      .finally(() => {
        if (this.stopping.get(sessionId) === stopped) this.stopping.delete(sessionId);
      });
    this.stopping.set(sessionId, stopped);
  }
}
