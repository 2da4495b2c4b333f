export interface HandshakeLimiterOptions {
  /** Failed handshakes an address may make within `windowMs` before it is refused. */
  readonly maxFailures?: number;
  readonly windowMs?: number;
  /** How many addresses are remembered at most; the least recently failed is forgotten first. */
  readonly maxAddresses?: number;
  readonly now?: () => number;
}

export interface HandshakeLimiter {
  /** Whether a new handshake from `address` is refused for now. */
  isBlocked(address: string): boolean;
  recordFailure(address: string): void;
  /** A good handshake clears the address's record. */
  recordSuccess(address: string): void;
  readonly size: number;
}

/**
 * Slows token guessing: after `maxFailures` failed handshakes (bad hello, bad token, no hello in
 * time) within a window, an address is refused until the window since its first failure has passed.
 * Memory is bounded: at most `maxAddresses` addresses are tracked.
 */
export function createHandshakeLimiter(options: HandshakeLimiterOptions = {}): HandshakeLimiter {
  const maxFailures = options.maxFailures ?? 10;
  const windowMs = options.windowMs ?? 60_000;
  const maxAddresses = options.maxAddresses ?? 1024;
  const now = options.now ?? Date.now;
  // Insertion order is recency order: a failing address is deleted and re-inserted.
  const failures = new Map<string, { since: number; count: number }>();

  const current = (address: string) => {
    const entry = failures.get(address);
    if (entry !== undefined && now() - entry.since >= windowMs) {
      failures.delete(address);
      return undefined;
    }
    return entry;
  };

  return {
    isBlocked: (address) => (current(address)?.count ?? 0) >= maxFailures,
    recordFailure(address) {
      const entry = current(address) ?? { since: now(), count: 0 };
      failures.delete(address);
      failures.set(address, { since: entry.since, count: entry.count + 1 });
      while (failures.size > maxAddresses) {
        const oldest = failures.keys().next().value;
        if (oldest === undefined) break;
        failures.delete(oldest);
      }
    },
    recordSuccess(address) {
      failures.delete(address);
    },
    get size() {
      return failures.size;
    },
  };
}
