import { useEffect } from 'react';
import { WORKHUB_SESSION_ID } from '../../../src-shared/workhub-model';
import { useAppStore, useStoreApi } from '../../state/store-context';
import '../../styles/workhub.css';
import { TranscriptView } from '../TranscriptView';
import { ConfirmActionDialog } from './ConfirmActionDialog';
import { TasksPanel } from './TasksPanel';
import { WorkHubComposer } from './WorkHubComposer';
import { WorkHubEmpty } from './WorkHubEmpty';
import { TasksIcon, WorkHubIcon } from './workhub-icons';

/** The WorkHub: the coordination chat (requests, proposals, results), its composer, and the Tasks it handed out. */
export function WorkHubView() {
  const store = useStoreApi();
  const tasksOpen = useAppStore((state) => state.workhub.tasksOpen);
  const taskCount = useAppStore((state) => state.workhub.delegations.length);

  useEffect(() => {
    document.title = 'WorkHub — Cairn';
    return () => {
      document.title = 'Cairn';
    };
  }, []);

  return (
    <section className="session-view workhub-view" aria-labelledby="workhub-title" data-testid="workhub-view">
      <header className="workhub-header">
        <span className="workhub-mark">
          <WorkHubIcon />
        </span>
        <div className="workhub-heading">
          <h1 id="workhub-title">WorkHub</h1>
          <span className="workhub-subtitle">
            Say what you want; Cairn proposes where it belongs and acts when you confirm.
          </span>
        </div>
        <button
          type="button"
          className={`button button-small workhub-tasks-button${tasksOpen ? ' is-pressed' : ''}`}
          aria-pressed={tasksOpen}
          onClick={() => store.getState().setTasksOpen(!tasksOpen)}
        >
          <TasksIcon />
          Tasks
          {taskCount > 0 ? <span className="workhub-tasks-count">{taskCount}</span> : null}
        </button>
      </header>
      <div className="workhub-body">
        <div className="workhub-chat">
          <TranscriptView key={WORKHUB_SESSION_ID} sessionId={WORKHUB_SESSION_ID} empty={<WorkHubEmpty />} />
          <div className="session-footer">
            <WorkHubComposer />
          </div>
        </div>
        {tasksOpen ? <TasksPanel /> : null}
      </div>
      <ConfirmActionDialog />
    </section>
  );
}
