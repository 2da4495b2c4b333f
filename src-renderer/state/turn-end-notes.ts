import type { ChangeEvent } from '../../src-shared/events';
import { isActiveStatus, type RunStatus } from '../../src-shared/model';
import { WORKHUB_SESSION_ID } from '../../src-shared/workhub-model';

/** A turn this window saw running that has now ended, to tell the person about while the tab is in the background. */
export interface TurnEnd {
  readonly sessionId: string;
  readonly turnId: string;
  readonly status: RunStatus;
}

/**
 * Follows the turns a batch of events reports: remembers those running (in `running`, which it
 * updates) and returns those that ended after being seen running — never a turn that was already over
 * when this window first heard of it. The WorkHub's own turns are left out.
 */
export function endedTurns(running: Set<string>, batch: readonly ChangeEvent[]): TurnEnd[] {
  const ended: TurnEnd[] = [];
  for (const event of batch) {
    if (event.kind !== 'turn.changed' || event.turn.sessionId === WORKHUB_SESSION_ID) continue;
    const { sessionId, turnId, status } = event.turn;
    const key = `${sessionId}\u0000${turnId}`;
    if (isActiveStatus(status)) running.add(key);
    else if (running.delete(key)) ended.push({ sessionId, turnId, status });
  }
  return ended;
}

/** What the note says about an ended turn. */
export function turnEndBody(status: RunStatus): string {
  switch (status) {
    case 'completed':
      return 'The answer is ready.';
    case 'failed':
      return 'The turn failed.';
    case 'cancelled':
      return 'The turn was stopped.';
    case 'interrupted':
      return 'The turn was interrupted.';
    default:
      return 'The turn ended.';
  }
}
