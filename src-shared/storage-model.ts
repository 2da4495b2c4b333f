/** How the host process is doing right now: memory, and how late its event loop ran since the last reading. */
export interface HostVitals {
  readonly rssBytes: number;
  readonly heapUsedBytes: number;
  readonly heapTotalBytes: number;
  /**
   * The heap's old generation as the latest full collection left it: what the host keeps, without the
   * sawtooth of `heapUsed` between collections. Null until the first full collection.
   */
  readonly heapAfterFullGcBytes: number | null;
  /** Event-loop delay over the window since the previous reading (or the host's start): p50, p99, max. */
  readonly eventLoopDelayMs: { readonly p50: number; readonly p99: number; readonly max: number };
  /** How long that window was. */
  readonly windowMs: number;
}

/** Compacting the database (Settings → Storage → Reclaim space) while it runs. */
export interface StorageReclaimProgress {
  readonly startedAt: number;
  /** Bytes written so far (the write-ahead log's growth) against the live data's size. */
  readonly writtenBytes: number;
  readonly expectedBytes: number;
}

/** How the last Reclaim space ended. */
export interface StorageReclaimResult {
  readonly finishedAt: number;
  readonly ok: boolean;
  /** How much smaller the database and its write-ahead log are (0 when it failed). */
  readonly freedBytes: number;
  /** Why it failed; null when it succeeded. */
  readonly message: string | null;
}

/** What the data directory holds, by part (`storage.usage`). */
export interface StorageUsage {
  readonly databaseBytes: number;
  /** The database's write-ahead log (`cairn.sqlite-wal`). */
  readonly walBytes: number;
  /** Pages the database holds free: about what Reclaim space gives back. */
  readonly freeBytes: number;
  readonly offloadBytes: number;
  readonly offloadFiles: number;
  readonly checkpointsBytes: number;
  readonly worktreesBytes: number;
  /** Offloaded outputs only archived sessions use: what deleting every archived session frees of them. */
  readonly archivedOffloadBytes: number;
  /** Whether a turn is running now (Reclaim space waits for none). */
  readonly turnRunning: boolean;
  readonly reclaim: StorageReclaimProgress | null;
  readonly lastReclaim: StorageReclaimResult | null;
}
