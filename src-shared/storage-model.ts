/** How the host process is doing right now: memory, and how late its event loop ran since the last reading. */
export interface HostVitals {
  readonly rssBytes: number;
  readonly heapUsedBytes: number;
  readonly heapTotalBytes: number;
  /** Event-loop delay over the window since the previous reading (or the host's start): p50, p99, max. */
  readonly eventLoopDelayMs: { readonly p50: number; readonly p99: number; readonly max: number };
  /** How long that window was. */
  readonly windowMs: number;
}
