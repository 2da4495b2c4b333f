import type { GoalRecord, GoalStatus } from '../../src-shared/goal-model';
import { formatTokenCount } from './usage';

/** Goal statuses and progress in words. */

const LABELS: Readonly<Record<GoalStatus, string>> = {
  active: 'Working',
  paused: 'Paused',
  blocked: 'Blocked',
  budgetLimited: 'Budget used up',
  usageLimited: 'Usage limit',
  iterationLimited: 'Turn cap reached',
  complete: 'Complete',
};

export type GoalTone = 'active' | 'paused' | 'attention' | 'done';

export function goalStatusLabel(status: GoalStatus): string {
  return LABELS[status];
}

export function goalTone(status: GoalStatus): GoalTone {
  switch (status) {
    case 'active':
      return 'active';
    case 'paused':
      return 'paused';
    case 'complete':
      return 'done';
    default:
      return 'attention';
  }
}

/** The limit a goal has reached by its current figures (what the host checks before it resumes), or null. */
export function limitReached(goal: GoalRecord): string | null {
  if (goal.tokenBudget !== null && goal.tokensUsed >= goal.tokenBudget) {
    return `The token budget is used up (${formatTokenCount(goal.tokensUsed)} of ${formatTokenCount(goal.tokenBudget)} tokens).`;
  }
  if (goal.maxIterations !== null && goal.iterations >= goal.maxIterations) {
    return `The turn cap is reached (${turnsLabel(goal)}).`;
  }
  return null;
}

/** Why Resume cannot be used now (a limit is still reached), or null when it can. */
export function resumeBlocker(goal: GoalRecord): string | null {
  const limit = limitReached(goal);
  return limit === null ? null : `${limit} Raise it with Edit limits to resume.`;
}

const LIMIT_STATUSES: ReadonlySet<GoalStatus> = new Set(['budgetLimited', 'iterationLimited']);

/**
 * The status as the bar and the sidebar show it: a goal stopped by a limit that has since been raised
 * is no longer "Budget used up", it is ready to resume.
 */
export function goalLabel(goal: GoalRecord): string {
  return LIMIT_STATUSES.has(goal.status) && limitReached(goal) === null ? 'Limit raised' : goalStatusLabel(goal.status);
}

/**
 * Why a goal that is not working stopped, in a sentence. A limit is described from the current
 * figures (the host's reason was written when it was reached and goes stale once it is raised);
 * otherwise the host's reason when it gave one.
 */
export function goalStopReason(goal: GoalRecord): string | null {
  if (goal.status === 'active') return null;
  if (LIMIT_STATUSES.has(goal.status)) return resumeBlocker(goal) ?? 'The limit was raised. Resume to go on.';
  if (goal.lastReason !== null && goal.lastReason.trim() !== '') return goal.lastReason;
  switch (goal.status) {
    case 'paused':
      return 'Paused.';
    case 'blocked':
      return 'The agent cannot go on without you.';
    case 'usageLimited':
      return 'The provider’s usage limit was reached.';
    case 'complete':
      return 'The agent reports the objective is met.';
    default:
      return null;
  }
}

/** "2,500 of 10,000 tokens" style figures for the bar, as short labels. */
export function tokensLabel(goal: GoalRecord): string {
  return goal.tokenBudget === null
    ? `${formatTokenCount(goal.tokensUsed)} tokens`
    : `${formatTokenCount(goal.tokensUsed)} of ${formatTokenCount(goal.tokenBudget)} tokens`;
}

export function turnsLabel(goal: GoalRecord): string {
  const noun = (count: number) => (count === 1 ? 'turn' : 'turns');
  return goal.maxIterations === null
    ? `${goal.iterations} ${noun(goal.iterations)}`
    : `${goal.iterations} of ${goal.maxIterations} ${noun(goal.maxIterations)}`;
}

/** 0…1 of the budget used (null without a budget). */
export function budgetFraction(goal: GoalRecord): number | null {
  if (goal.tokenBudget === null || goal.tokenBudget <= 0) return null;
  return Math.min(1, goal.tokensUsed / goal.tokenBudget);
}

/** 45 → "45s", 125 → "2m 05s", 3840 → "1h 04m". */
export function formatElapsed(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  if (total < 60) return `${total}s`;
  const minutes = Math.floor(total / 60);
  if (minutes < 60) return `${minutes}m ${String(total % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}

/** Statuses from which Resume is offered (the host refuses it while a limit is still reached). */
export function canResume(status: GoalStatus): boolean {
  return (
    status === 'paused' ||
    status === 'blocked' ||
    status === 'budgetLimited' ||
    status === 'usageLimited' ||
    status === 'iterationLimited'
  );
}
