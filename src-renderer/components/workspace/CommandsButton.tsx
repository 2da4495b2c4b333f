import { isLiveShellRunStatus } from '../../../src-shared/shell-run-model';
import { sessionShellRunIds } from '../../state/reducers/shell-reducer';
import { useAppStore, useStoreApi } from '../../state/store-context';
import { Spinner } from '../icons';
import { TerminalIcon } from './workspace-icons';

export const commandsPanelId = (sessionId: string) => `commands-${sessionId}`;

/** Opens the session's Commands panel; the label counts the commands running now. */
export function CommandsButton({ sessionId }: { sessionId: string }) {
  const store = useStoreApi();
  const open = useAppStore((state) => state.commandsPanelFor === sessionId);
  const running = useAppStore((state) =>
    sessionShellRunIds(state.shell, sessionId).reduce((count, id) => {
      const record = state.shell.runsById[id]?.record;
      return record != null && isLiveShellRunStatus(record.status) ? count + 1 : count;
    }, 0),
  );
  return (
    <button
      type="button"
      className={`button button-small button-quiet commands-button${running > 0 ? ' is-running' : ''}`}
      aria-expanded={open}
      aria-controls={open ? commandsPanelId(sessionId) : undefined}
      onClick={() => store.getState().setCommandsPanel(open ? null : sessionId)}
      data-testid="commands-button"
    >
      <TerminalIcon />
      Commands
      {running > 0 ? (
        <span className="commands-count">
          <Spinner />
          {running} running
        </span>
      ) : null}
    </button>
  );
}
