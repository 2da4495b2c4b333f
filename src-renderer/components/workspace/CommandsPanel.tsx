import { useEffect, useRef, useState } from 'react';
import { canStopShellRun } from '../../format/shell-run';
import { sessionShellRunIds } from '../../state/reducers/shell-reducer';
import { useAppStore, useStoreApi } from '../../state/store-context';
import { CloseIcon, RetryIcon, Spinner } from '../icons';
import { ShellDuration, ShellRunPanel, ShellStatusChip, StopCommandButton } from './ShellRunPanel';
import { ChevronRightIcon } from './workspace-icons';
import { commandsPanelId } from './CommandsButton';
import { dateTimeLabel, whenLabel } from '../../format/dates';

/** The commands the agent ran in this session, newest first: status, duration, Stop, and output a click away. */
export function CommandsPanel({ sessionId }: { sessionId: string }) {
  const store = useStoreApi();
  const ids = useAppStore((state) => sessionShellRunIds(state.shell, sessionId));
  const status = useAppStore((state) => state.shellLists[sessionId]);
  const ref = useRef<HTMLElement>(null);
  const close = () => store.getState().setCommandsPanel(null);

  useEffect(() => {
    void store.getState().loadShellRuns(sessionId);
    ref.current?.focus();
  }, [sessionId, store]);

  // A click elsewhere (but not on the button that toggles it) closes the panel.
  useEffect(() => {
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node | null;
      if (ref.current === null || target === null || ref.current.contains(target)) return;
      if (target instanceof Element && target.closest('.commands-button') !== null) return;
      store.getState().setCommandsPanel(null);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [store]);

  return (
    <section
      ref={ref}
      id={commandsPanelId(sessionId)}
      className="commands-panel"
      data-testid="commands-panel"
      aria-labelledby={`${commandsPanelId(sessionId)}-title`}
      tabIndex={-1}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        close();
      }}
    >
      <header className="commands-panel-header">
        <h2 id={`${commandsPanelId(sessionId)}-title`}>Commands in this session</h2>
        <button type="button" className="icon-button" aria-label="Close commands" onClick={close}>
          <CloseIcon />
        </button>
      </header>
      {ids.length > 0 ? (
        <ul className="commands-list">
          {ids.map((id) => (
            <CommandRow key={id} shellRunId={id} />
          ))}
        </ul>
      ) : status === 'failed' ? (
        <div className="commands-empty">
          <p>The commands could not be read.</p>
          <button type="button" className="button button-small" onClick={() => void store.getState().loadShellRuns(sessionId)}>
            <RetryIcon />
            Try again
          </button>
        </div>
      ) : status === 'ready' ? (
        <p className="commands-empty">No commands yet. When the agent runs a shell command, it shows here with its output.</p>
      ) : (
        <div className="commands-empty">
          <Spinner label="Loading the commands" />
        </div>
      )}
    </section>
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
          <time className="command-row-time" dateTime={new Date(record.startedAt).toISOString()} title={dateTimeLabel(record.startedAt, Date.now())}>
            {whenLabel(record.startedAt, Date.now())}
          </time>
          {canStopShellRun(record) ? <StopCommandButton shellRunId={shellRunId} /> : null}
        </span>
      </div>
      {open ? <ShellRunPanel shellRunId={shellRunId} /> : null}
    </li>
  );
}
