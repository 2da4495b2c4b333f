import type { ChangeEvent } from '../../src-shared/events';
import type { GoalRecord, GoalStatus } from '../../src-shared/goal-model';
import type { Notifier } from '../platform/notifier';
import { waitingSessionLabel } from './agent-selectors';
import type { AppState } from './app-state';
import { notificationsOn } from './preferences-slice';

/**
 * Follows the goals a batch of events reports: remembers those working (in `active`, which it updates)
 * and returns those that then stopped by themselves — reached, blocked, or out of budget, usage or
 * iterations. A goal the person paused or cleared is no news to them, and a goal already over when
 * this window first heard of it is not told about.
 */
export function endedGoals(active: Set<string>, batch: readonly ChangeEvent[]): GoalRecord[] {
  const ended: GoalRecord[] = [];
  for (const event of batch) {
    if (event.kind !== 'goal.changed') continue;
    const { goal } = event;
    if (goal.status === 'active' && !goal.cleared) active.add(goal.goalId);
    else if (active.delete(goal.goalId) && !goal.cleared && goal.status !== 'paused') ended.push(goal);
  }
  return ended;
}

/** What the note says about a goal that stopped. */
export function goalEndBody(status: GoalStatus, objective: string): string {
  switch (status) {
    case 'complete':
      return `Goal reached: ${objective}`;
    case 'blocked':
      return `The goal is blocked: ${objective}`;
    default:
      return `The goal stopped at its limit: ${objective}`;
  }
}

/** An OS notification for each goal that stopped by itself (only in the background, where permitted and turned on, as for turns). */
export function announceEndedGoals(
  active: Set<string>,
  batch: readonly ChangeEvent[],
  get: () => AppState,
  notify: Notifier | undefined,
): void {
  const ended = endedGoals(active, batch);
  const state = get();
  if (notify === undefined || !notificationsOn(state.notifications)) return;
  for (const goal of ended) {
    const title = waitingSessionLabel(goal.sessionId, state.sessions.byId, state.agents.links);
    notify({
      title,
      body: goalEndBody(goal.status, goal.objective),
      onClick: () => get().selectSession(goal.sessionId),
    });
  }
}
