import type { GoalRecord } from '../../../src-shared/goal-model';

export const GOAL_TURN_PREFIX = 'Goal turn';

/** The message that starts each goal turn: the objective again, and what has been done so far. */
export function goalTurnPrompt(goal: GoalRecord): string {
  const turn = goal.iterations + 1;
  const budget =
    goal.tokenBudget === null
      ? `${goal.tokensUsed} tokens used (no budget)`
      : `${goal.tokensUsed} of ${goal.tokenBudget} tokens used`;
  const cap =
    goal.maxIterations === null
      ? `${goal.iterations} turns done (no cap)`
      : `${goal.iterations} of ${goal.maxIterations} turns done`;
  return [
    `${GOAL_TURN_PREFIX} ${turn}. Keep working toward this goal:`,
    '',
    goal.objective,
    '',
    `So far: ${cap}; ${budget}.`,
    'Make the next concrete step. When the objective is met, call update_goal with status "complete" and say why; if you cannot go on without the person, call update_goal with status "blocked" and say what you need.',
  ].join('\n');
}

/** The goal turn number a prompt carries, or null when it is not a goal prompt. */
export function goalTurnNumber(text: string): number | null {
  const match = new RegExp(`^${GOAL_TURN_PREFIX} (\\d+)\\.`).exec(text);
  return match === null ? null : Number(match[1]);
}
