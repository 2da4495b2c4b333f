import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it, vi } from 'vitest';
import { createHostVitalsMeter } from './host-vitals';

/** A full collection, on demand (the flag is set for this process; `gc` comes from a fresh context). */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

const MB = 1024 * 1024;

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

  it('reports the heap a full collection keeps: it rises with what is held and falls when that is let go', async () => {
    const meter = createHostVitalsMeter();
    const settled = async (previous: number | null, moved: (bytes: number) => boolean) => {
      let bytes: number | null = previous;
      // The observer hears of a collection a tick after it: waited for, with room for a busy machine.
      await vi.waitFor(
        () => {
          collectGarbage();
          bytes = meter.read().heapAfterFullGcBytes;
          expect(bytes !== null && moved(bytes)).toBe(true);
        },
        { timeout: 30_000, interval: 20 },
      );
      return bytes ?? 0;
    };
    try {
      const before = await settled(null, () => true);
      let held: string[] | null = Array.from({ length: 400_000 }, (_, i) => `kept string number ${i} `.repeat(4));
      const holding = await settled(before, (bytes) => bytes > before + 30 * MB);
      expect(held.length).toBe(400_000);
      held = null;
      const released = await settled(holding, (bytes) => bytes < holding - 30 * MB);
      expect(released).toBeLessThan(before + 10 * MB);
    } finally {
      meter.close();
    }
  });
});
