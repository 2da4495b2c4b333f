import { describe, expect, it } from 'vitest';
import { goal } from '../state/reducers/record-fixtures';
import {
  budgetFraction,
  canResume,
  formatElapsed,
  goalLabel,
  goalStatusLabel,
  goalStopReason,
  goalTone,
  resumeBlocker,
  tokensLabel,
  turnsLabel,
} from './goal';

describe('goal formatting', () => {
  it('names statuses and their tone', () => {
    expect(goalStatusLabel('budgetLimited')).toBe('Budget used up');
    expect(goalTone('active')).toBe('active');
    expect(goalTone('blocked')).toBe('attention');
    expect(goalTone('complete')).toBe('done');
    expect(canResume('paused')).toBe(true);
    expect(canResume('complete')).toBe(false);
  });

  it('says why a goal stopped, preferring the host’s reason', () => {
    expect(goalStopReason(goal({ goalId: 'g', status: 'active', lastReason: 'Resumed by you' }))).toBeNull();
    expect(
      goalStopReason(
        goal({ goalId: 'g', status: 'budgetLimited', tokensUsed: 2000, tokenBudget: 2000, lastReason: null }),
      ),
    ).toBe('The token budget is used up (2k of 2k tokens). Raise it with Edit limits to resume.');
    expect(goalStopReason(goal({ goalId: 'g', status: 'blocked', lastReason: 'Need the password' }))).toBe(
      'Need the password',
    );
  });

  it('shows tokens against the budget, turns against the cap and elapsed time', () => {
    const limited = goal({ goalId: 'g', tokensUsed: 1500, tokenBudget: 1000, iterations: 2, maxIterations: 5 });
    expect(tokensLabel(limited)).toBe('1.5k of 1k tokens');
    expect(budgetFraction(limited)).toBe(1);
    expect(turnsLabel(limited)).toBe('2 of 5 turns');
    expect(turnsLabel(goal({ goalId: 'g', iterations: 1 }))).toBe('1 turn');
    expect(budgetFraction(goal({ goalId: 'g' }))).toBeNull();
    expect(formatElapsed(45)).toBe('45s');
    expect(formatElapsed(125)).toBe('2m 05s');
    expect(formatElapsed(3840)).toBe('1h 04m');
  });

  it('after a limit is raised, says so instead of the stale reason, and Resume is allowed only below every limit', () => {
    const spent = goal({
      goalId: 'g',
      status: 'budgetLimited',
      tokensUsed: 2000,
      tokenBudget: 2000,
      lastReason: 'The token budget is used up (2000 of 2000).',
    });
    expect(goalLabel(spent)).toBe('Budget used up');
    expect(resumeBlocker(spent)).toBe(
      'The token budget is used up (2k of 2k tokens). Raise it with Edit limits to resume.',
    );
    const raised = { ...spent, tokenBudget: 10_000 };
    expect(tokensLabel(raised)).toBe('2k of 10k tokens');
    expect(goalLabel(raised)).toBe('Limit raised');
    expect(goalStopReason(raised)).toBe('The limit was raised. Resume to go on.');
    expect(goalStopReason(raised)).not.toContain('used up');
    expect(resumeBlocker(raised)).toBeNull();
    const capped = goal({
      goalId: 'g',
      status: 'paused',
      iterations: 3,
      maxIterations: 3,
      lastReason: 'Paused by you',
    });
    expect(goalStopReason(capped)).toBe('Paused by you');
    expect(resumeBlocker(capped)).toBe('The turn cap is reached (3 of 3 turns). Raise it with Edit limits to resume.');
  });
});
