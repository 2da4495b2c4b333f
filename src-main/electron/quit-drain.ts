import type { Logger } from '../runtime/ports/ports';

/** The part of Electron's `app` the quit sequence uses. */
export interface QuittableApp {
  on(event: 'before-quit', listener: (event: { preventDefault(): void }) => void): unknown;
  quit(): void;
  exit(code?: number): void;
}

export interface DrainOnQuitOptions {
  /** Stops the transports and closes the host: live runs end as interrupted, the database closes. */
  readonly drain: () => Promise<void>;
  readonly logger: Logger;
  /** If draining takes longer than this the app exits anyway (the record recovers at next start). */
  readonly timeoutMs?: number;
  readonly setTimer?: (callback: () => void, ms: number) => void;
}

/**
 * On the first quit, holds the quit, drains the host, then quits again for real. Quits asked for
 * while draining wait for the same drain.
 */
export function drainBeforeQuit(app: QuittableApp, options: DrainOnQuitOptions): void {
  let state: 'running' | 'draining' | 'drained' = 'running';
  const setTimer = options.setTimer ?? ((callback, ms) => setTimeout(callback, ms).unref());
  app.on('before-quit', (event) => {
    if (state === 'drained') return;
    event.preventDefault();
    if (state === 'draining') return;
    state = 'draining';
    setTimer(() => {
      if (state === 'drained') return;
      options.logger.error('The host did not finish closing in time; exiting anyway');
      app.exit(1);
    }, options.timeoutMs ?? 10_000);
    options
      .drain()
      .catch((error: unknown) => options.logger.error('The host failed to close cleanly', { error: String(error) }))
      .finally(() => {
        state = 'drained';
        app.quit();
      });
  });
}
