/**
 * Shell runs: one `run_shell` tool call's process, kept durably so the record says how it ended even
 * when the app did not see it end. `starting` and `running` are live; the others are final.
 */

export const SHELL_RUN_STATUSES = ['starting', 'running', 'exited', 'killed', 'timed_out', 'orphaned'] as const;

export type ShellRunStatus = (typeof SHELL_RUN_STATUSES)[number];

export type LiveShellRunStatus = Extract<ShellRunStatus, 'starting' | 'running'>;

export type FinalShellRunStatus = Exclude<ShellRunStatus, LiveShellRunStatus>;

export function isLiveShellRunStatus(status: ShellRunStatus): status is LiveShellRunStatus {
  return status === 'starting' || status === 'running';
}

export interface ShellRunRecord {
  readonly shellRunId: string;
  readonly sessionId: string;
  readonly turnId: string;
  readonly runId: string;
  /** Null when the caller could not name the tool call (the tool context did not carry one). */
  readonly toolCallId: string | null;
  readonly command: string;
  /** The real path the command ran in (the workspace root, symlinks resolved). */
  readonly cwd: string;
  readonly status: ShellRunStatus;
  /** Set when the shell exited on its own; null when it was ended by a signal or never started. */
  readonly exitCode: number | null;
  /** The signal that ended the shell, e.g. `SIGTERM`. */
  readonly signal: string | null;
  readonly pid: number | null;
  readonly startedAt: number;
  readonly endedAt: number | null;
  /** The last bytes of each stream (the runner's cap), decoded as UTF-8. */
  readonly stdoutTail: string;
  readonly stderrTail: string;
  /** True when the stream produced more than its tail holds. */
  readonly stdoutTruncated: boolean;
  readonly stderrTruncated: boolean;
  /** Why the run ended abnormally, written for a person (spawn failure, orphaned by a restart). */
  readonly failureMessage: string | null;
}
