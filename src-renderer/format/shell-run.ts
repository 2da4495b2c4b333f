import type { ShellRunRecord } from '../../src-shared/shell-run-model';
import { isLiveShellRunStatus } from '../../src-shared/shell-run-model';

export type ShellTone = 'live' | 'success' | 'danger' | 'warning' | 'muted';

export interface ShellStatusView {
  readonly label: string;
  readonly tone: ShellTone;
  /** The longer explanation for a tooltip, or shown under the command (orphaned, failed to start). */
  readonly detail: string | null;
}

/** How a command's status chip reads: running, its exit code, stopped, timed out or orphaned. */
export function shellStatusView(record: ShellRunRecord): ShellStatusView {
  switch (record.status) {
    case 'starting':
      return { label: 'Starting', tone: 'live', detail: null };
    case 'running':
      return { label: 'Running', tone: 'live', detail: null };
    case 'exited':
      if (record.exitCode === null) return { label: 'Did not start', tone: 'danger', detail: record.failureMessage };
      return {
        label: `Exit ${record.exitCode}`,
        tone: record.exitCode === 0 ? 'success' : 'danger',
        detail: record.failureMessage,
      };
    case 'killed':
      return {
        label: 'Stopped',
        tone: 'warning',
        detail: `Stopped: the command and everything it started were killed${record.signal === null ? '' : ` (${record.signal})`}.`,
      };
    case 'timed_out':
      return {
        label: 'Timed out',
        tone: 'warning',
        detail: 'It ran past its time limit and was killed, with everything it started.',
      };
    case 'orphaned':
      return {
        label: 'Orphaned',
        tone: 'muted',
        detail: record.failureMessage ?? 'The app restarted without a live handle to this process.',
      };
  }
}

/**
 * Whether Stop can end the command: one Cairn runs itself. A command a native agent (Codex) runs in
 * its own process tree has no pid here; it ends with its turn (the turn's Stop).
 */
export function canStopShellRun(record: ShellRunRecord): boolean {
  return record.status === 'starting' || (record.status === 'running' && record.pid !== null);
}

/** How long a command ran, or has run so far (`now`). */
export function shellRunDuration(record: ShellRunRecord, now: number): number {
  return (record.endedAt ?? (isLiveShellRunStatus(record.status) ? now : record.startedAt)) - record.startedAt;
}
