import { constants, createHistogram, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';
import type { HostVitals } from '../../../src-shared/storage-model';

/** The event loop is sampled every 10 ms: fine enough for a p99 against a 50 ms budget, cheap enough to keep on. */
const RESOLUTION_MS = 10;

export interface HostVitalsMeter {
  /** Memory now, and the event-loop delay since the previous reading; the window restarts. */
  read(): HostVitals;
  close(): void;
}

/**
 * The host's vitals as an outside client reads them (`host.vitals`): what a long-running host is
 * watched by (`npm run bench endurance`). The delay histogram restarts at each reading, so a reader
 * sampling every 10 s gets each 10 s window's figures.
 */
export function createHostVitalsMeter(now: () => number = () => performance.now()): HostVitalsMeter {
  // A timer of our own rather than monitorEventLoopDelay: that one drops the first tick after a
  // reset, which is the very tick that was late when a reading lands right after a long task.
  const histogram = createHistogram();
  let due = now() + RESOLUTION_MS;
  const tick = setInterval(() => {
    const at = now();
    histogram.record(Math.max(1, Math.round((at - due) * 1e6)));
    due = at + RESOLUTION_MS;
  }, RESOLUTION_MS);
  tick.unref();
  let windowStart = now();
  const keptHeap = watchKeptHeap();
  return {
    read() {
      // A tick that is overdue now counts too: the reading may run before the late timer does.
      const overdue = now() - due;
      if (overdue > RESOLUTION_MS) {
        histogram.record(Math.round(overdue * 1e6));
        due = now() + RESOLUTION_MS; // counted here, so not again in the next window
      }
      const memory = process.memoryUsage();
      const sampled = histogram.count > 0;
      const toMs = (nanoseconds: number) => (sampled ? nanoseconds / 1e6 : 0);
      const vitals: HostVitals = {
        rssBytes: memory.rss,
        heapUsedBytes: memory.heapUsed,
        heapTotalBytes: memory.heapTotal,
        heapAfterFullGcBytes: keptHeap.bytes(),
        eventLoopDelayMs: {
          p50: toMs(histogram.percentile(50)),
          p99: toMs(histogram.percentile(99)),
          max: toMs(histogram.max),
        },
        windowMs: now() - windowStart,
      };
      histogram.reset();
      windowStart = now();
      return vitals;
    },
    close() {
      clearInterval(tick);
      keptHeap.close();
    },
  };
}

/** The young generation: what a full collection leaves there is gone again at the next scavenge. */
const YOUNG_SPACES = new Set(['new_space', 'new_large_object_space']);

/**
 * What the heap keeps: the old generation as each full collection (mark-compact) leaves it. `heapUsed`
 * read at an arbitrary moment swings with how long ago the collector ran (a sawtooth of tens of MB in a
 * busy host); this figure moves only when what is reachable does, so growth in it is memory kept.
 */
function watchKeptHeap(): { bytes(): number | null; close(): void } {
  let kept: number | null = null;
  const observer = new PerformanceObserver((list) => {
    const full = list.getEntries().some((entry) => isFullCollection(entry));
    if (full) kept = oldGenerationBytes();
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    bytes: () => kept,
    close: () => observer.disconnect(),
  };
}

function isFullCollection(entry: PerformanceEntry): boolean {
  // A gc entry's detail says which collection it was (the typings of this Node do not declare it).
  const detail: unknown = 'detail' in entry ? entry.detail : undefined;
  if (typeof detail !== 'object' || detail === null || !('kind' in detail)) return false;
  return detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR;
}

function oldGenerationBytes(): number {
  return getHeapSpaceStatistics()
    .filter((space) => !YOUNG_SPACES.has(space.space_name))
    .reduce((sum, space) => sum + space.space_used_size, 0);
}
