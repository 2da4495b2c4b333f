import type { DelegationRecord } from '../../../src-shared/workhub-model';
import { sessionTimeLabel } from '../../format/dates';
import { delegationStatusLabel } from '../../format/workhub-text';
import { useAppStore, useStoreApi } from '../../state/store-context';
import '../../styles/workhub-tasks.css';
import { CloseIcon, Spinner } from '../icons';

/** What the WorkHub handed to other sessions, newest first, with the live state of each; a click opens the session. */
export function TasksPanel() {
  const store = useStoreApi();
  const delegations = useAppStore((state) => state.workhub.delegations);
  const loaded = useAppStore((state) => state.workhub.delegationsLoaded);
  const actions = store.getState();
  return (
    <aside className="tasks-panel" data-testid="tasks-view" aria-labelledby="tasks-title">
      <header className="tasks-header">
        <h2 id="tasks-title">Tasks</h2>
        <span className="tasks-count">{loaded ? delegations.length : ''}</span>
        <button
          type="button"
          className="icon-button"
          aria-label="Close tasks"
          title="Close tasks"
          onClick={() => actions.setTasksOpen(false)}
        >
          <CloseIcon />
        </button>
      </header>
      <div className="tasks-scroll">
        {!loaded ? (
          <div className="tasks-loading">
            <Spinner label="Loading tasks" />
          </div>
        ) : delegations.length === 0 ? (
          <p className="tasks-empty">
            Nothing handed out yet. Ask the WorkHub for something and, once you say so, it goes to the right session —
            and shows up here.
          </p>
        ) : (
          <ul className="task-list" role="list">
            {delegations.map((delegation) => (
              <TaskRow key={delegation.actionId} delegation={delegation} />
            ))}
          </ul>
        )}
      </div>
    </aside>
  );
}

function TaskRow({ delegation }: { delegation: DelegationRecord }) {
  const store = useStoreApi();
  const gone = delegation.status === 'removed';
  return (
    <li
      className="task"
      data-testid="task"
      data-status={delegation.status}
      data-session-id={delegation.targetSessionId}
    >
      <button
        type="button"
        className="task-open"
        disabled={gone}
        title={gone ? 'That session was deleted' : 'Open the session'}
        onClick={() => store.getState().selectSession(delegation.targetSessionId)}
      >
        <span className="task-top">
          <span className="task-title">{delegation.targetTitle ?? 'Untitled session'}</span>
          <span className={`task-status task-${delegation.status}`} data-testid="task-status">
            {delegation.status === 'running' ? <Spinner /> : null}
            {delegationStatusLabel(delegation.status)}
          </span>
        </span>
        <span className="task-text">{delegation.text}</span>
        <span className="task-time">{sessionTimeLabel(delegation.createdAt, Date.now())}</span>
      </button>
    </li>
  );
}
