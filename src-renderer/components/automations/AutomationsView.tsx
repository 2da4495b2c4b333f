import { useEffect, useState } from 'react';
import type { ScheduledTask } from '../../../src-shared/automation-model';
import { useAppStore, useStoreApi } from '../../state/store-context';
import { PlusIcon } from '../icons';
import { DailyReviewPanel } from './DailyReviewPanel';
import { dateTimeLabel, whenLabel } from '../../format/dates';
import { describeSchedule, firingResult, isFinishedOnceTask } from './automation-text';
import { TaskForm } from './TaskForm';

/** Scheduled tasks with their next run, last result, switch, Run now and history; the daily review. */
export function AutomationsView() {
  const store = useStoreApi();
  const tasks = useAppStore((state) => state.automations.tasks);
  const [editing, setEditing] = useState<ScheduledTask | 'new' | null>(null);
  useEffect(() => {
    void store.getState().loadAutomations();
  }, [store]);
  return (
    <section className="automations-view" aria-label="Automations">
      <header className="automations-header">
        <h1>Automations</h1>
        <p className="field-help">
          Tasks fire while Cairn is running. A slot missed while it was not runs once on start if within the task&apos;s
          catch-up window; otherwise it is recorded as missed.
        </p>
      </header>
      <DailyReviewPanel />
      <div className="automations-section-head">
        <h2>Scheduled tasks</h2>
        {editing === null ? (
          <button type="button" className="button button-primary" onClick={() => setEditing('new')}>
            <PlusIcon /> New task
          </button>
        ) : null}
      </div>
      {editing !== null ? (
        <TaskForm existing={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />
      ) : null}
      {tasks.length === 0 && editing === null ? <p className="automations-empty">No scheduled tasks yet.</p> : null}
      <ul className="automation-list" role="list">
        {tasks.map((task) => (
          <TaskRow key={task.taskId} task={task} onEdit={() => setEditing(task)} />
        ))}
      </ul>
    </section>
  );
}

function TaskRow({ task, onEdit }: { task: ScheduledTask; onEdit: () => void }) {
  const store = useStoreApi();
  const history = useAppStore((state) => state.automations.history[task.taskId]);
  const [open, setOpen] = useState(false);
  const [confirmingRemove, setConfirmingRemove] = useState(false);
  const actions = store.getState();
  // A once-task that has run has nothing more to do: it is not shown as switched on.
  const finished = isFinishedOnceTask(task);
  return (
    <li className="automation-row" data-testid="automation-task">
      <div className="automation-row-main">
        <label
          className="automation-switch"
          title={
            finished
              ? 'Finished: a once task runs one time. Edit it to set another time.'
              : task.enabled
                ? 'Pause'
                : 'Resume'
          }
        >
          <input
            type="checkbox"
            role="switch"
            aria-label={`${task.title} enabled`}
            checked={task.enabled && !finished}
            disabled={finished}
            onChange={(event) => void actions.setTaskEnabled(task.taskId, event.target.checked)}
          />
        </label>
        <div className="automation-row-text">
          <span className="automation-title">
            {task.title}
            {task.target.kind === 'newSession' && task.target.permissionMode === 'full' ? (
              <span
                className="automation-full"
                data-testid="automation-full"
                title="Its sessions run in Full: commands run outside the sandbox, unasked, with your rights. Edit it to choose Auto."
              >
                Full access
              </span>
            ) : null}
          </span>
          <span className="automation-meta">
            {describeSchedule(task.schedule, Date.now())} · {task.timeZone} ·{' '}
            {task.effect === 'notify' ? 'notify' : 'agent turn'}
          </span>
          <span className="automation-meta">
            Next:{' '}
            {finished
              ? 'finished (it ran once)'
              : task.nextRunAt === null
                ? '—'
                : whenLabel(task.nextRunAt, Date.now(), { timeZone: task.timeZone })}{' '}
            · Last:{' '}
            <span data-testid="automation-last">
              {task.lastFiring === null ? 'never run' : firingResult(task.lastFiring)}
            </span>
          </span>
          {task.pausedReason !== null ? <span className="field-error">{task.pausedReason}</span> : null}
        </div>
        <div className="automation-row-actions">
          <button type="button" className="button" onClick={() => void actions.runTaskNow(task.taskId)}>
            Run now
          </button>
          <button
            type="button"
            className="button"
            aria-expanded={open}
            onClick={() => {
              setOpen(!open);
              if (!open) void actions.loadTaskHistory(task.taskId);
            }}
          >
            History
          </button>
          <button type="button" className="button" onClick={onEdit}>
            Edit
          </button>
          {confirmingRemove ? (
            <span className="automation-confirm" role="group" aria-label={`Remove ${task.title}?`}>
              <span>Remove this task and its history?</span>
              <button
                type="button"
                className="button button-danger"
                onClick={() => void actions.removeTask(task.taskId)}
              >
                Remove
              </button>
              <button type="button" className="button" autoFocus onClick={() => setConfirmingRemove(false)}>
                Keep
              </button>
            </span>
          ) : (
            <button type="button" className="button button-quiet" onClick={() => setConfirmingRemove(true)}>
              Remove…
            </button>
          )}
        </div>
      </div>
      {open ? (
        <table className="automation-history" aria-label={`History of ${task.title}`}>
          <thead>
            <tr>
              <th>Time</th>
              <th>Result</th>
              <th>Turn</th>
            </tr>
          </thead>
          <tbody>
            {(history ?? []).map((firing) => (
              <tr key={firing.firingId} data-testid="firing-row">
                <td>
                  {dateTimeLabel(firing.slotAt, Date.now(), { timeZone: task.timeZone })}
                  {firing.manual ? ' (run now)' : firing.catchUp ? ' (catch-up)' : ''}
                  {firing.collapsedSlots > 0 ? ` +${firing.collapsedSlots} collapsed` : ''}
                </td>
                <td title={firing.reason ?? undefined}>{firingResult(firing)}</td>
                <td>
                  {firing.sessionId !== null && firing.turnId !== null ? (
                    <button
                      type="button"
                      className="text-button"
                      onClick={() => actions.selectSession(firing.sessionId)}
                    >
                      Open turn
                    </button>
                  ) : (
                    (firing.reason ?? '—')
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </li>
  );
}
