/**
 * What a running turn is waiting on, said live while a model step waits: a signal for the screen,
 * not part of the record (a client that missed it shows the turn as working until the next one).
 */

/** Why a model call is being retried: the transient provider failures. */
export const RETRY_REASONS = ['rate_limited', 'server_error', 'unreachable'] as const;
export type RetryReason = (typeof RETRY_REASONS)[number];

/** A session's live run and what it waits on. */
export interface LiveRunProgress {
  readonly turnId: string;
  readonly runId: string;
  readonly progress: RunProgress;
}

export type RunProgress =
  /** The request is out; nothing has come back yet. `since` is when it was sent (host clock, ms). */
  | {
      readonly phase: 'waiting_for_provider';
      readonly attempt: number;
      readonly maxAttempts: number;
      readonly since: number;
    }
  /** The last attempt failed transiently; attempt `attempt` goes out at `resumeAt` (host clock, ms). */
  | {
      readonly phase: 'retrying';
      readonly attempt: number;
      readonly maxAttempts: number;
      readonly reason: RetryReason;
      readonly since: number;
      readonly resumeAt: number;
    };
