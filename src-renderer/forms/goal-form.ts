import type { GoalRecord } from '../../src-shared/goal-model';
import type { OperationInput } from '../../src-shared/operations';

/** The "Set goal" / "Edit limits" form: fields as typed, their checks, and the operation inputs. */
export interface GoalDraft {
  readonly objective: string;
  /** Token budget as typed: "", "50000", "50,000" or "50k". */
  readonly budget: string;
  /** Turn cap as typed. */
  readonly iterations: string;
}

export type GoalProblems = Partial<Record<keyof GoalDraft, string>>;

export const MIN_TOKEN_BUDGET = 1000;
const MAX_TOKEN_BUDGET = 100_000_000;
const MAX_ITERATIONS = 1000;

export const EMPTY_GOAL_DRAFT: GoalDraft = { objective: '', budget: '', iterations: '' };

export function limitsDraft(goal: GoalRecord): GoalDraft {
  return {
    objective: goal.objective,
    budget: goal.tokenBudget === null ? '' : String(goal.tokenBudget),
    iterations: goal.maxIterations === null ? '' : String(goal.maxIterations),
  };
}

/** "" → null (no limit); "50,000" or "50k" → 50000; anything else → NaN. */
export function parseTokenBudget(text: string): number | null {
  const cleaned = text
    .trim()
    .toLowerCase()
    .replace(/[,_\s]/g, '');
  if (cleaned === '') return null;
  const match = /^(\d+(?:\.\d+)?)([km]?)$/.exec(cleaned);
  if (match === null) return Number.NaN;
  const scale = match[2] === 'k' ? 1000 : match[2] === 'm' ? 1_000_000 : 1;
  const value = Number(match[1]) * scale;
  return Number.isInteger(value) ? value : Number.NaN;
}

/** "" → null (no cap); a whole number → it; anything else → NaN. */
export function parseIterations(text: string): number | null {
  const cleaned = text.trim();
  if (cleaned === '') return null;
  return /^\d+$/.test(cleaned) ? Number(cleaned) : Number.NaN;
}

export function validateGoalDraft(draft: GoalDraft, { objective = true }: { objective?: boolean } = {}): GoalProblems {
  const problems: GoalProblems = {};
  if (objective) {
    const text = draft.objective.trim();
    if (text === '') problems.objective = 'Say what the goal is.';
    else if (text.length > 4000) problems.objective = 'Use at most 4,000 characters.';
  }
  const budget = parseTokenBudget(draft.budget);
  if (budget !== null) {
    if (Number.isNaN(budget)) problems.budget = 'Enter a number of tokens, like 50000 or 50k.';
    else if (budget < MIN_TOKEN_BUDGET) problems.budget = 'Use at least 1,000 tokens — less would stop at once.';
    else if (budget > MAX_TOKEN_BUDGET) problems.budget = 'Use at most 100,000,000 tokens.';
  }
  const iterations = parseIterations(draft.iterations);
  if (iterations !== null) {
    if (Number.isNaN(iterations)) problems.iterations = 'Enter a whole number of turns.';
    else if (iterations < 1) problems.iterations = 'Allow at least 1 turn.';
    else if (iterations > MAX_ITERATIONS) problems.iterations = 'Use at most 1,000 turns.';
  }
  return problems;
}

export function armInput(sessionId: string, draft: GoalDraft): OperationInput<'goal.arm'> {
  return {
    sessionId,
    objective: draft.objective.trim(),
    tokenBudget: parseTokenBudget(draft.budget),
    maxIterations: parseIterations(draft.iterations),
  };
}

/** The setLimits input for the limits that changed (null when none did). */
export function limitsInput(goal: GoalRecord, draft: GoalDraft): OperationInput<'goal.control'> | null {
  const tokenBudget = parseTokenBudget(draft.budget);
  const maxIterations = parseIterations(draft.iterations);
  const changes = {
    ...(tokenBudget !== goal.tokenBudget ? { tokenBudget } : {}),
    ...(maxIterations !== goal.maxIterations ? { maxIterations } : {}),
  };
  if (Object.keys(changes).length === 0) return null;
  return {
    sessionId: goal.sessionId,
    goalId: goal.goalId,
    expectedRevision: goal.revision,
    action: 'setLimits',
    ...changes,
  };
}
