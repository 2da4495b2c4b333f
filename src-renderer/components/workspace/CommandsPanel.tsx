import { useEffect, useState } from 'react';
import { canStopShellRun } from '../../format/shell-run';
import { sessionShellRunIds } from '../../state/reducers/shell-reducer';
import { useAppStore, useStoreApi } from '../../state/store-context';
import { ShellDuration, ShellRunPanel, ShellStatusChip, StopCommandButton } from './ShellRunPanel';
import { ChevronRightIcon } from './workspace-icons';
import { commandsPanelId } from './CommandsButton';
import { SessionPanel, SessionPanelNote } from './SessionPanel';
import { dateTimeLabel, whenLabel } from '../../format/dates';

/** The commands the agent ran in this session, newest first: status, duration, Stop, and output a click away. */
export function CommandsPanel({ sessionId }: { sessionId: string }) {
  const store = useStoreApi();
  const ids = useAppStore((state) => sessionShellRunIds(state.shell, sessionId));
  const status = useAppStore((state) => state.shellLists[sessionId]);
  const close = () => store.getState().setCommandsPanel(null);

  useEffect(() => {
    void store.getState().loadShellRuns(sessionId);
  }, [sessionId, store]);

  return (
    // A click elsewhere (but not on the button that toggles it) closes the panel.
    <SessionPanel
      id={commandsPanelId(sessionId)}
      className="commands-panel"
      testId="commands-panel"
      title="Commands in this session"
      closeLabel="Close commands"
      onClose={close}
      outsideClickSpares=".commands-button"
    >
      {ids.length > 0 ? (
        <ul className="commands-list">
          {ids.map((id) => (
            <CommandRow key={id} shellRunId={id} />
          ))}
        </ul>
      ) : (
        <SessionPanelNote
          note={
            status === 'failed'
              ? {
                  kind: 'failed',
                  message: 'The commands could not be read.',
                  onRetry: () => void store.getState().loadShellRuns(sessionId),
                }
              : status === 'ready'
                ? {
                    kind: 'empty',
                    text: 'No commands yet. When the agent runs a shell command, it shows here with its output.',
                  }
                : { kind: 'loading', label: 'Loading the commands' }
          }
        />
      )}
    </SessionPanel>
  );
}

function CommandRow({ shellRunId }: { shellRunId: string }) {
  const record = useAppStore((state) => state.shell.runsById[shellRunId]?.record ?? null);
  const [open, setOpen] = useState(false);
  if (record === null) return null;
  return (
    <li className={`command-row${open ? ' is-open' : ''}`} data-testid="command-row" data-status={record.status}>
      <div className="command-row-line">
        <button type="button" className="command-row-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
          <span className="tool-call-chevron" aria-hidden="true">
            <ChevronRightIcon />
          </span>
          <code className="command-row-command" title={record.command}>
            {record.command}
          </code>
        </button>
        <span className="command-row-meta">
          <ShellStatusChip record={record} />
          <ShellDuration record={record} />
          <time
            className="command-row-time"
            dateTime={new Date(record.startedAt).toISOString()}
            title={dateTimeLabel(record.startedAt, Date.now())}
          >
            {whenLabel(record.startedAt, Date.now())}
          </time>
          {canStopShellRun(record) ? <StopCommandButton shellRunId={shellRunId} /> : null}
        </span>
      </div>
      {open ? <ShellRunPanel shellRunId={shellRunId} /> : null}
    </li>
  );
}
