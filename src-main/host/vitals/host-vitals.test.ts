import { describe, expect, it } from 'vitest';
import { createHostVitalsMeter } from './host-vitals';

function holdTheLoop(ms: number): void {
  const started = performance.now();
  while (performance.now() - started < ms) {
    // held, as a long synchronous task would hold it
  }
}

describe('the host vitals meter', () => {
  it('counts a long task in the window it fell in even when read before the late timer runs, and once only', async () => {
    const meter = createHostVitalsMeter();
    try {
      meter.read();
      holdTheLoop(400);
      const held = meter.read();
      expect(held.eventLoopDelayMs.max).toBeGreaterThanOrEqual(380);
      // Once the late timer has run, the next window does not count the same delay again.
      await new Promise<void>((resolve) => setTimeout(resolve, 30));
      expect(meter.read().eventLoopDelayMs.max).toBeLessThan(380);
    } finally {
      meter.close();
    }
  });
});
