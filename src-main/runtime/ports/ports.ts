/** What the runtime is given rather than reaches for, so tests control time, ids and output. */

export interface Clock {
  now(): number;
  /** Schedules `callback` after `ms`; returns a function that cancels it. */
  setTimeout(callback: () => void, ms: number): () => void;
}

export interface Ids {
  /** A new unique id; `kind` names what it is for (session, run, item, epoch). */
  next(
    kind:
      | 'session'
      | 'run'
      | 'item'
      | 'epoch'
      | 'connection'
      | 'interaction'
      | 'goal'
      | 'delegation'
      | 'shell_run'
      | 'memory'
      | 'mcp_server'
      | 'summary'
      | 'change_set'
      | 'worktree',
  ): string;
}

export interface Logger {
  info(message: string, details?: Record<string, unknown>): void;
  warn(message: string, details?: Record<string, unknown>): void;
  error(message: string, details?: Record<string, unknown>): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(callback, ms) {
    const timer = setTimeout(callback, ms);
    return () => clearTimeout(timer);
  },
};

export function randomIds(): Ids {
  return { next: (kind) => `${kind === 'epoch' ? '' : `${kind}-`}${crypto.randomUUID()}` };
}

/** Ids `kind-1`, `kind-2`, … in order: for tests that compare ids. */
export function sequentialIds(prefix = ''): Ids {
  const counters = new Map<string, number>();
  return {
    next(kind) {
      const next = (counters.get(kind) ?? 0) + 1;
      counters.set(kind, next);
      return `${prefix}${kind}-${next}`;
    },
  };
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

export function consoleLogger(): Logger {
  const line = (level: string, message: string, details?: Record<string, unknown>) =>
    `${new Date().toISOString()} ${level} ${message}${details === undefined ? '' : ` ${JSON.stringify(details)}`}`;
  return {
    info: (message, details) => console.log(line('info', message, details)),
    warn: (message, details) => console.warn(line('warn', message, details)),
    error: (message, details) => console.error(line('error', message, details)),
  };
}
