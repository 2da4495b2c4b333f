import type { MessageAuthor } from '../../../src-shared/message-author';
import type { AutomationStore } from '../../storage/automation-store';

/** Who wrote a turn's message when a firing started it (its turn id is the firing id): the task, or the daily review. */
export function firingAuthor(store: AutomationStore, sessionId: string, turnId: string): MessageAuthor | null {
  const firing = store.firingOfTurn(sessionId, turnId);
  if (firing === null) return null;
  const task = store.getTask(firing.taskId);
  if (task === null) return null;
  return task.system === 'daily_review'
    ? { kind: 'daily_review', taskId: task.taskId }
    : { kind: 'scheduled_task', taskId: task.taskId, taskTitle: task.title };
}
