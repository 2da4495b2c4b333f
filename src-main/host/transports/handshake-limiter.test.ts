import { describe, expect, it } from 'vitest';
import { createHandshakeLimiter } from './handshake-limiter';

describe('the handshake limiter', () => {
  it('answers each failure later than the one before, up to a bound, and forgets failures after the window', () => {
    let time = 0;
    const limiter = createHandshakeLimiter({ stepMs: 100, maxDelayMs: 350, windowMs: 1000, now: () => time });
    expect([
      limiter.recordFailure(),
      limiter.recordFailure(),
      limiter.recordFailure(),
      limiter.recordFailure(),
      limiter.recordFailure(),
    ]).toEqual([100, 200, 300, 350, 350]);
    time = 999;
    expect(limiter.recentFailures).toBeGreaterThan(0);
    time = 1000;
    expect(limiter.recentFailures).toBe(0);
    expect(limiter.recordFailure()).toBe(100);
  });

  it('keeps bounded memory however many handshakes fail', () => {
    const limiter = createHandshakeLimiter({ stepMs: 10, maxDelayMs: 1000 });
    for (let index = 0; index < 100_000; index += 1) limiter.recordFailure();
    expect(limiter.recentFailures).toBe(100);
  });
});
