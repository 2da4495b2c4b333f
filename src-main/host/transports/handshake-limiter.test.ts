import { describe, expect, it } from 'vitest';
import { createHandshakeLimiter } from './handshake-limiter';

describe('the handshake limiter', () => {
  it('refuses an address after too many failures in the window, and lets it try again after', () => {
    let time = 0;
    const limiter = createHandshakeLimiter({ maxFailures: 3, windowMs: 1000, now: () => time });
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect(limiter.isBlocked('10.0.0.1')).toBe(false);
      limiter.recordFailure('10.0.0.1');
    }
    expect(limiter.isBlocked('10.0.0.1')).toBe(true);
    expect(limiter.isBlocked('10.0.0.2')).toBe(false);
    time = 999;
    expect(limiter.isBlocked('10.0.0.1')).toBe(true);
    time = 1000;
    expect(limiter.isBlocked('10.0.0.1')).toBe(false);
  });

  it('forgets an address that then succeeds', () => {
    const limiter = createHandshakeLimiter({ maxFailures: 2 });
    limiter.recordFailure('a');
    limiter.recordSuccess('a');
    limiter.recordFailure('a');
    expect(limiter.isBlocked('a')).toBe(false);
  });

  it('remembers a bounded number of addresses, forgetting the least recently failed', () => {
    const limiter = createHandshakeLimiter({ maxFailures: 1, maxAddresses: 100 });
    for (let index = 0; index < 10_000; index += 1) limiter.recordFailure(`addr-${index}`);
    expect(limiter.size).toBe(100);
    expect(limiter.isBlocked('addr-9999')).toBe(true);
    expect(limiter.isBlocked('addr-0')).toBe(false);
  });
});
