import type { ConnectionState } from '../bridge/host-link';

/**
 * Whether the renderer's chunks can be fetched now. In a browser tab they come from the host that
 * served the page, and a chunk whose fetch failed stays failed for the page's life: Chromium keeps
 * the failure in its module map and never asks for that address again (measured with Chromium 150,
 * for `import()` and for `<link rel="modulepreload">` alike). So a lazy load waits while the line to
 * the host is down, and fetches once it is back (platform/retrying-import.ts). Open until told
 * otherwise: in the desktop app the chunks are files beside the page.
 */
export class ChunkSource {
  private reachable = true;
  private waiting: Array<() => void> = [];

  setReachable(reachable: boolean): void {
    this.reachable = reachable;
    if (!reachable) return;
    const waiting = this.waiting;
    this.waiting = [];
    for (const resume of waiting) resume();
  }

  /** Resolves at once while the chunks can be fetched, else once they can again. */
  whenReachable(): Promise<void> {
    if (this.reachable) return Promise.resolve();
    return new Promise((resume) => this.waiting.push(resume));
  }

  /**
   * Follows a browser tab's line to its host: down while it reconnects (the host stopped or restarts).
   * A first connection, or one the host refused, leaves it open: the host served the page just now, or is up.
   */
  follow(link: { connection(): ConnectionState; onConnectionChange(listener: (state: ConnectionState) => void): () => void }): () => void {
    const apply = (state: ConnectionState) => this.setReachable(state.status !== 'reconnecting');
    apply(link.connection());
    return link.onConnectionChange(apply);
  }
}

/** The page's one chunk source (every lazy view and deferred action loads through it). */
export const chunkSource = new ChunkSource();
