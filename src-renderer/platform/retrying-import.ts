import { chunkSource as pageChunkSource, type ChunkSource } from './chunk-source';

/** Waits between attempts: quick at first, then every 4 s (about a minute in all). */
const DELAYS_MS = [250, 500, 1000, 2000, 4000, 4000, 4000, 4000, 4000, 4000, 4000, 4000, 4000, 4000, 4000, 4000, 4000];

/**
 * Loads a chunk once its source can be reached (platform/chunk-source.ts): a view first opened while
 * the host restarts loads when the host is back, where fetching at once would fail for the page's life
 * (and take the window with it). A load that fails anyway is the source's to recover: in a browser tab
 * the page reloads once the host answers (the load then never settles); where loads can be tried again
 * they are, while attempts remain. Rejects with the last error once recovery gives up (the window's
 * error boundary then offers Reload, which starts the page afresh).
 */
export async function retryingImport<T>(
  load: () => Promise<T>,
  delays: readonly number[] = DELAYS_MS,
  sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
  source: Pick<ChunkSource, 'whenReachable' | 'afterFailure' | 'loadStarted'> = pageChunkSource,
): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    const ended = source.loadStarted();
    await source.whenReachable();
    let module: T;
    try {
      module = await load();
    } catch (error) {
      ended('failed');
      const next = await source.afterFailure();
      if (next === 'reloading') return new Promise<T>(() => undefined);
      const delay = delays[attempt];
      if (next === 'give-up' || delay === undefined) throw error;
      await sleep(delay);
      continue;
    }
    ended('loaded');
    return module;
  }
}
