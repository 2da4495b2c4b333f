import type { ConnectionState } from '../bridge/host-link';

/** The page a browser tab shows: whether its host answers now, and a fresh start of it. */
export interface HostedPage {
  /** Whether the host serves the page now (a request that is never cached). */
  answers(): Promise<boolean>;
  /** Starts the page afresh: every chunk is fetched anew. */
  reload(): void;
  /** Whether a reload would close something the person has open now (a dialog). */
  busy(): boolean;
  /** When the page last reloaded itself to recover a chunk (ms since the epoch), if it did. */
  lastRecovery(): number | null;
  markRecovery(at: number): void;
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** What a lazy load does after a failure. */
export type AfterFailure = 'retry' | 'reloading' | 'give-up';

/** A second recovery this soon after the last shows the error screen instead: a page never reloads in a loop. */
const RECOVERY_SPACING_MS = 60_000;
/** Between asks whether the host answers again: quick at first, then every 2 s. */
const PROBE_DELAYS_MS = [250, 500, 1000, 2000];
/** Between looks at whether the person has closed what a reload would close. */
const BUSY_RECHECK_MS = 500;
/**
 * How long a view that just loaded keeps a reload waiting, so that it can show (and, if a dialog, hold
 * the reload itself): React shows it within a frame, or within its reveal throttle (300 ms) after a fallback.
 */
const VIEW_SHOWS_MS = 1000;

interface HostLine {
  connection(): ConnectionState;
  onConnectionChange(listener: (state: ConnectionState) => void): () => void;
}

/**
 * Whether the renderer's chunks can be fetched now, and what a failed one costs. In a browser tab
 * they come from the host that served the page, and a chunk whose fetch failed stays failed for the
 * page's life: Chromium keeps the failure in its module map and never asks for that address again
 * (measured with Chromium 150, for `import()` and for `<link rel="modulepreload">` alike; a failed
 * chunk fails the chunks that import it). So a lazy load waits while the line to the host is down and
 * fetches once it is back (platform/retrying-import.ts); and one that failed anyway (the host went
 * away as it fetched, before the line noticed) cannot be tried again: once the host answers, the page
 * reloads, reopening the same session with its drafts — but not while a dialog is open (Settings
 * opened meanwhile would close under the person's hands) or another view is loading (Settings asked
 * for while the host was away would never open): then once it closes. In the desktop app the
 * chunks are files beside the page: always reachable, and a failed load is simply tried again.
 */
export class ChunkSource {
  private reachable = true;
  private waiting: Array<() => void> = [];
  private page: HostedPage | null = null;
  private reloading = false;
  /** Lazy loads held or fetching (and views just loaded, while they show): a reload would lose them. */
  private loadsUnderway = 0;

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
   * A lazy load begins (held while the line is down, or fetching): a recovery reload waits for it, and
   * for the view it opens to show, since a reload would lose what the person just asked for. Returns
   * the function that says how it ended (once).
   */
  loadStarted(): (outcome: 'loaded' | 'failed') => void {
    this.loadsUnderway += 1;
    let ended = false;
    return (outcome) => {
      if (ended) return;
      ended = true;
      const page = this.page;
      if (outcome === 'loaded' && page !== null) void page.sleep(VIEW_SHOWS_MS).then(() => (this.loadsUnderway -= 1));
      else this.loadsUnderway -= 1;
    };
  }

  /**
   * A lazy load failed. In the desktop app: try again. In a browser tab: once the host answers, no
   * dialog is open and no other load is underway, the page reloads ('reloading': the load never settles, the page goes), unless it
   * did so for a chunk within the last minute ('give-up': the error screen offers Reload).
   */
  async afterFailure(): Promise<AfterFailure> {
    const page = this.page;
    if (page === null) return 'retry';
    if (this.reloading) return 'reloading';
    const last = page.lastRecovery();
    if (last !== null && page.now() - last < RECOVERY_SPACING_MS) return 'give-up';
    for (let attempt = 0; ; attempt += 1) {
      await this.whenReachable();
      if (this.reloading) return 'reloading';
      if (this.holdsReload(page)) {
        await page.sleep(BUSY_RECHECK_MS);
        continue;
      }
      // Looked at again once the host answers: the person may have opened something meanwhile.
      if ((await page.answers()) && !this.holdsReload(page)) break;
      await page.sleep(PROBE_DELAYS_MS[Math.min(attempt, PROBE_DELAYS_MS.length - 1)] ?? 2000);
    }
    if (this.reloading) return 'reloading';
    this.reloading = true;
    page.markRecovery(page.now());
    page.reload();
    return 'reloading';
  }

  private holdsReload(page: HostedPage): boolean {
    return this.loadsUnderway > 0 || page.busy();
  }

  /**
   * Follows a browser tab's line to its host: down while it reconnects (the host stopped or restarts).
   * A first connection, or one the host refused, leaves it open: the host served the page just now, or is up.
   */
  follow(link: HostLine, page: HostedPage | null = null): () => void {
    this.page = page;
    const apply = (state: ConnectionState) => this.setReachable(state.status !== 'reconnecting');
    apply(link.connection());
    const stop = link.onConnectionChange(apply);
    return () => {
      stop();
      this.page = null;
    };
  }
}

const RECOVERY_KEY = 'cairn.chunkRecoveryAt';

/** The browser tab's page: asks the host for the page itself, remembers a recovery for the tab's session. */
export function browserHostedPage(win: Window): HostedPage {
  return {
    async answers() {
      try {
        const response = await win.fetch(win.location.pathname, { cache: 'no-store' });
        return response.ok;
      } catch {
        return false;
      }
    },
    reload: () => win.location.reload(),
    busy: () => win.document.querySelector('[role="dialog"], [role="alertdialog"], dialog[open]') !== null,
    lastRecovery() {
      try {
        const value = Number(win.sessionStorage.getItem(RECOVERY_KEY));
        return Number.isFinite(value) && value > 0 ? value : null;
      } catch {
        return null;
      }
    },
    markRecovery(at) {
      try {
        win.sessionStorage.setItem(RECOVERY_KEY, String(at));
      } catch {
        // No session storage: the page still reloads; the spacing then holds only within this page.
      }
    },
    now: () => Date.now(),
    sleep: (ms) => new Promise((resolve) => win.setTimeout(resolve, ms)),
  };
}

/** The page's one chunk source (every lazy view and deferred action loads through it). */
export const chunkSource = new ChunkSource();
