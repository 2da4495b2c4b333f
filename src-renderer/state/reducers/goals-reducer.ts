import type { ChangeEvent } from '../../../src-shared/events';
import type { GoalRecord } from '../../../src-shared/goal-model';

/** Each known session's current goal (null: none); a session missing here has not been read yet. */
export type GoalsState = Readonly<Record<string, GoalRecord | null>>;

/**
 * A goal from an event or an operation's answer. A cleared goal stops being the session's goal; an
 * older revision of the same goal, or a goal older than the session's current one, changes nothing.
 */
export function applyGoal(goals: GoalsState, goal: GoalRecord): GoalsState {
  const known = goals[goal.sessionId];
  if (goal.cleared) {
    if (known === undefined || (known !== null && known.goalId !== goal.goalId)) return goals;
    return known === null ? goals : { ...goals, [goal.sessionId]: null };
  }
  if (known !== undefined && known !== null) {
    if (known.goalId === goal.goalId && known.revision > goal.revision) return goals;
    if (known.goalId !== goal.goalId && known.createdAt > goal.createdAt) return goals;
  }
  return { ...goals, [goal.sessionId]: goal };
}

/** The answer of goal.get for a session. */
export function setSessionGoal(goals: GoalsState, sessionId: string, goal: GoalRecord | null): GoalsState {
  if (goal === null) return goals[sessionId] === null ? goals : { ...goals, [sessionId]: null };
  const known = goals[sessionId];
  if (known !== undefined && known !== null && known.goalId === goal.goalId && known.revision > goal.revision)
    return goals;
  return { ...goals, [sessionId]: goal };
}

export function reduceGoalEvent(goals: GoalsState, event: ChangeEvent): GoalsState {
  switch (event.kind) {
    case 'goal.changed':
      return applyGoal(goals, event.goal);
    case 'session.removed': {
      if (!(event.sessionId in goals)) return goals;
      const next = { ...goals };
      delete next[event.sessionId];
      return next;
    }
    default:
      return goals;
  }
}
