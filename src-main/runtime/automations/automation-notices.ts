import type { ChangeEvent } from '../../../src-shared/events';
import type { RunStatus } from '../../../src-shared/model';
import type { Stores } from '../../storage/stores';
import type { EventBus } from '../ports/event-bus';

const TOLD: readonly RunStatus[] = ['completed', 'failed', 'cancelled', 'interrupted', 'waiting'];

/**
 * Tells the person when an automation's turn finishes or needs an answer: a `host.notice` (the
 * browser shows it in the app; the desktop app turns it into an OS notification), once per status.
 */
export function watchAutomationTurns(stores: Stores, bus: EventBus): () => void {
  return bus.subscribe((event: ChangeEvent) => {
    if (event.kind !== 'turn.changed' || !TOLD.includes(event.turn.status)) return;
    const { sessionId, turnId, status } = event.turn;
    const firing = stores.automations.firingOfTurn(sessionId, turnId);
    if (firing === null || firing.toldStatus === status) return;
    stores.automations.setToldStatus(firing.firingId, status);
    const task = stores.automations.getTask(firing.taskId);
    const name =
      task === null ? 'A scheduled task' : task.system === 'daily_review' ? 'The daily review' : `"${task.title}"`;
    const message =
      status === 'waiting'
        ? `${name} needs your answer.`
        : `${name} ${status === 'completed' ? 'finished' : `ended: ${status}`}.`;
    // After the listeners of this event have seen it: the notice follows the change it reports.
    queueMicrotask(() => {
      bus.publish({ kind: 'automation.changed', taskId: firing.taskId });
      bus.publish({
        kind: 'host.notice',
        code: status === 'waiting' ? 'automation_waiting' : 'automation_finished',
        sessionId,
        message,
      });
    });
  });
}
