import { useState, type ReactNode } from 'react';
import { isLiveShellRunStatus, type ShellRunRecord } from '../../../src-shared/shell-run-model';
import { canStopShellRun, shellRunDuration, shellStatusView } from '../../format/shell-run';
import { formatDuration, formatRunningTime } from '../../format/tool-call';
import { useAppStore, useStoreApi } from '../../state/store-context';
import { CheckIcon, StopIcon, Spinner } from '../icons';
import { ShellOutput } from './ShellOutput';
import { TerminalIcon } from './workspace-icons';
import { useNow } from '../../hooks/use-now';

/** The command's status as a chip: a spinner while it runs, then its exit code, Stopped, Timed out or Orphaned. */
export function ShellStatusChip({ record }: { record: ShellRunRecord }) {
  const view = shellStatusView(record);
  return (
    <span
      className={`shell-status tone-${view.tone}`}
      data-testid="shell-status"
      data-status={record.status}
      title={view.detail ?? undefined}
    >
      {view.tone === 'live' ? <Spinner /> : view.tone === 'success' ? <CheckIcon /> : null}
      {view.label}
    </span>
  );
}

/** How long the command has run: ticking while it runs. */
export function ShellDuration({ record }: { record: ShellRunRecord }) {
  const live = isLiveShellRunStatus(record.status);
  const now = useNow(live);
  const ms = shellRunDuration(record, now);
  return <span className="shell-duration">{live ? formatRunningTime(ms) : formatDuration(ms)}</span>;
}

/** Stop for a running command: the host kills it and everything it started. */
export function StopCommandButton({ shellRunId }: { shellRunId: string }) {
  const store = useStoreApi();
  const [stopping, setStopping] = useState(false);
  return (
    <button
      type="button"
      className="button button-small shell-stop"
      aria-label="Stop command"
      title="Stop this command and everything it started"
      disabled={stopping}
      onClick={() => {
        setStopping(true);
        void store
          .getState()
          .killShellRun(shellRunId)
          .finally(() => setStopping(false));
      }}
    >
      {stopping ? <Spinner /> : <StopIcon />}
      Stop
    </button>
  );
}

/**
 * One shell command as a small terminal: the command and where it ran, its status and duration,
 * Stop while it runs, and its output (stdout and stderr apart) following as it arrives.
 */
export function ShellRunPanel({
  shellRunId,
  title,
  footer,
}: {
  shellRunId: string;
  /** Shown before the command, e.g. the tool's name. */ title?: ReactNode;
  footer?: ReactNode;
}) {
  const view = useAppStore((state) => state.shell.runsById[shellRunId]);
  const record = view?.record ?? null;
  if (view === undefined || record === null) {
    return (
      <div className="shell-run is-loading" data-testid="shell-run" data-shell-run-id={shellRunId}>
        <Spinner label="Loading the command" />
      </div>
    );
  }
  const live = isLiveShellRunStatus(record.status);
  const status = shellStatusView(record);
  const showDetail =
    status.detail !== null &&
    (record.status === 'orphaned' || (record.status === 'exited' && record.failureMessage !== null));
  return (
    <section
      className={`shell-run tone-${status.tone}`}
      data-testid="shell-run"
      data-shell-run-id={shellRunId}
      data-status={record.status}
      aria-label={`Command: ${record.command}`}
    >
      <header className="shell-run-header">
        <span className="shell-run-icon" aria-hidden="true">
          <TerminalIcon />
        </span>
        {title}
        <code className="shell-command" title={record.command}>
          <span className="shell-prompt" aria-hidden="true">
            ${' '}
          </span>
          {record.command}
        </code>
        <span className="shell-run-meta">
          <ShellStatusChip record={record} />
          <ShellDuration record={record} />
          {canStopShellRun(record) ? <StopCommandButton shellRunId={shellRunId} /> : null}
        </span>
      </header>
      <p className="shell-cwd" title={record.cwd}>
        in <code>{record.cwd}</code>
      </p>
      {showDetail ? (
        <p className="shell-detail" role="note">
          {status.detail}
        </p>
      ) : null}
      <ShellOutput chunks={view.chunks} clipped={view.clipped} live={live} label={`Output of ${record.command}`} />
      {footer}
    </section>
  );
}
