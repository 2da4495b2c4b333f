export interface BackoffOptions {
  readonly initialMs: number;
  readonly maxMs: number;
  /** 0..1: how far each delay may wander either way, so many clients do not retry in step. */
  readonly jitter: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 250, maxMs: 3000, jitter: 0.2 };

/** The wait before reconnect attempt `attempt` (0-based): doubling from `initialMs`, capped at `maxMs`. */
export function reconnectDelay(
  attempt: number,
  options: BackoffOptions = DEFAULT_BACKOFF,
  random: () => number = Math.random,
): number {
  const base = Math.min(options.maxMs, options.initialMs * 2 ** Math.min(attempt, 30));
  const spread = base * options.jitter * (random() * 2 - 1);
  return Math.max(0, Math.round(base + spread));
}
