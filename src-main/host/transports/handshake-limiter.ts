export interface HandshakeLimiterOptions {
  /** The delay before the first failed handshake is answered; each further failure in the window adds as much. */
  readonly stepMs?: number;
  /** The longest a failed handshake waits for its answer. */
  readonly maxDelayMs?: number;
  /** Failures older than this no longer slow anything down. */
  readonly windowMs?: number;
  /** Sockets that have not said hello yet, at most; a new one closes the oldest. */
  readonly maxUnauthenticated?: number;
  readonly now?: () => number;
}

export interface HandshakeLimiter {
  /** Records a failed handshake and says how long to wait before answering it. */
  recordFailure(): number;
  /** Failures within the window now. */
  readonly recentFailures: number;
  readonly maxUnauthenticated: number;
}

/**
 * Slows token guessing without ever locking the person out. Every client of a loopback host comes
 * from 127.0.0.1, so nothing is refused by address: a right token is always welcomed at once, and
 * only failures are slowed — each failed handshake is answered after a delay that grows with the
 * failures of the last window (bounded), while the number of sockets still waiting to say hello is
 * capped by the transport (the oldest closed first), so a flood of them cannot crowd anyone out.
 */
export function createHandshakeLimiter(options: HandshakeLimiterOptions = {}): HandshakeLimiter {
  const stepMs = options.stepMs ?? 50;
  const maxDelayMs = options.maxDelayMs ?? 1000;
  const windowMs = options.windowMs ?? 60_000;
  const now = options.now ?? Date.now;
  // Failure times, oldest first; never longer than the delay cap needs.
  const failures: number[] = [];
  const keep = Math.ceil(maxDelayMs / Math.max(stepMs, 1));

  const forgetOld = () => {
    const since = now() - windowMs;
    while (failures.length > 0 && (failures[0] ?? 0) <= since) failures.shift();
  };

  return {
    recordFailure() {
      forgetOld();
      failures.push(now());
      if (failures.length > keep) failures.shift();
      return Math.min(stepMs * failures.length, maxDelayMs);
    },
    get recentFailures() {
      forgetOld();
      return failures.length;
    },
    maxUnauthenticated: options.maxUnauthenticated ?? 64,
  };
}
