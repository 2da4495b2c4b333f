import { chunkSource as pageChunkSource, type ChunkSource } from './chunk-source';

/** Waits between attempts: quick at first, then every 4 s (about a minute in all). */
const DELAYS_MS = [250, 500, 1000, 2000, 4000, 4000, 4000, 4000, 4000, 4000, 4000, 4000, 4000, 4000, 4000, 4000, 4000];

/**
 * Loads a chunk once its source can be reached (platform/chunk-source.ts): a view first opened while
 * the host restarts loads when the host is back, where fetching at once would fail for the page's life
 * (and take the window with it). A load that fails anyway is tried again while attempts remain, each
 * again after the source is reachable; rejects with the last error once every attempt failed (the
 * window's error boundary then offers Reload, which starts the page afresh).
 */
export async function retryingImport<T>(
  load: () => Promise<T>,
  delays: readonly number[] = DELAYS_MS,
  sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
  source: Pick<ChunkSource, 'whenReachable'> = pageChunkSource,
): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    await source.whenReachable();
    try {
      return await load();
    } catch (error) {
      const delay = delays[attempt];
      if (delay === undefined) throw error;
      await sleep(delay);
    }
  }
}
