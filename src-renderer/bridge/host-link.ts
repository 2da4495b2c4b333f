import type { Bridge } from '../../src-shared/bridge';

/** How the renderer's line to the host is doing, as the connection banner shows it. */
export type ConnectionStatus = 'connecting' | 'open' | 'reconnecting' | 'failed';

export interface ConnectionState {
  readonly status: ConnectionStatus;
  /** The host's epoch from its last welcome; it changes when the host process restarts. */
  readonly hostEpoch: string | null;
  /** Counts welcomes: a value above 1 means the line dropped and came back, so snapshots must be re-read. */
  readonly generation: number;
  /** Why the link gave up, written for the person reading it (status `failed`). */
  readonly problem: string | null;
}

/**
 * A Bridge plus what the renderer needs to know about the line under it. In Electron the line is
 * always up; over WebSocket it can drop and come back.
 */
export interface HostLink extends Bridge {
  connection(): ConnectionState;
  /** Returns a function that unsubscribes. */
  onConnectionChange(listener: (state: ConnectionState) => void): () => void;
  close(): void;
}

export const OPEN_CONNECTION: ConnectionState = { status: 'open', hostEpoch: null, generation: 1, problem: null };
