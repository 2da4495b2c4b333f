import { describe, expect, it } from 'vitest';
import { goal } from '../state/reducers/record-fixtures';
import { armInput, EMPTY_GOAL_DRAFT, limitsDraft, limitsInput, parseTokenBudget, validateGoalDraft } from './goal-form';

describe('the goal form', () => {
  it('needs an objective; budget and turn cap are optional but bounded', () => {
    expect(validateGoalDraft(EMPTY_GOAL_DRAFT)).toEqual({ objective: 'Say what the goal is.' });
    expect(validateGoalDraft({ objective: 'x', budget: '999', iterations: '0' })).toEqual({
      budget: 'Use at least 1,000 tokens — less would stop at once.',
      iterations: 'Allow at least 1 turn.',
    });
    expect(validateGoalDraft({ objective: 'x', budget: 'lots', iterations: '2.5' })).toEqual({
      budget: 'Enter a number of tokens, like 50000 or 50k.',
      iterations: 'Enter a whole number of turns.',
    });
    expect(validateGoalDraft({ objective: '', budget: '', iterations: '' }, { objective: false })).toEqual({});
  });

  it('reads budgets the way people write them', () => {
    expect(parseTokenBudget('')).toBeNull();
    expect(parseTokenBudget('50,000')).toBe(50_000);
    expect(parseTokenBudget('50k')).toBe(50_000);
    expect(parseTokenBudget('1.5M')).toBe(1_500_000);
    expect(parseTokenBudget('1.0005k')).toBeNaN();
  });

  it('makes goal.arm and setLimits inputs', () => {
    expect(armInput('s1', { objective: ' ship it ', budget: '', iterations: '3' })).toEqual({
      sessionId: 's1',
      objective: 'ship it',
      tokenBudget: null,
      maxIterations: 3,
    });
    const current = goal({ goalId: 'g1', tokenBudget: 5000, maxIterations: 4, revision: 7 });
    expect(limitsInput(current, limitsDraft(current))).toBeNull();
    expect(limitsInput(current, { ...limitsDraft(current), budget: '' })).toEqual({
      sessionId: 's1',
      goalId: 'g1',
      expectedRevision: 7,
      action: 'setLimits',
      tokenBudget: null,
    });
  });
});
