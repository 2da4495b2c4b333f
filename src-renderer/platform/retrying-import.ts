/** Waits between attempts: quick at first, then every 4 s (about a minute in all). */
const DELAYS_MS = [250, 500, 1000, 2000, 4000, 4000, 4000, 4000, 4000, 4000, 4000, 4000, 4000, 4000, 4000, 4000, 4000];

/**
 * Loads a chunk, trying again while it cannot be fetched. In a browser the chunks come from the host:
 * a view first opened while the host restarts would otherwise fail for good (and take the window
 * with it). Chromium fetches a failed module again on the next `import()`, so a retry is enough.
 * Rejects with the last error once every attempt failed.
 */
export async function retryingImport<T>(
  load: () => Promise<T>,
  delays: readonly number[] = DELAYS_MS,
  sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await load();
    } catch (error) {
      const delay = delays[attempt];
      if (delay === undefined) throw error;
      await sleep(delay);
    }
  }
}
