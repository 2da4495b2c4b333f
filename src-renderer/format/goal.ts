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

/** Why a goal that is not working stopped, in a sentence (the host's reason when it gave one). */
export function goalStopReason(goal: GoalRecord): string | null {
  if (goal.status === 'active') return null;
  if (goal.lastReason !== null && goal.lastReason.trim() !== '') return goal.lastReason;
  switch (goal.status) {
    case 'paused':
      return 'Paused.';
    case 'blocked':
      return 'The agent cannot go on without you.';
    case 'budgetLimited':
      return 'The token budget is used up.';
    case 'usageLimited':
      return 'The provider’s usage limit was reached.';
    case 'iterationLimited':
      return 'The turn cap is reached.';
    case 'complete':
      return 'The agent reports the objective is met.';
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
  return goal.maxIterations === null ? `${goal.iterations} ${noun(goal.iterations)}` : `${goal.iterations} of ${goal.maxIterations} ${noun(goal.maxIterations)}`;
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
  return status === 'paused' || status === 'blocked' || status === 'budgetLimited' || status === 'usageLimited' || status === 'iterationLimited';
}
