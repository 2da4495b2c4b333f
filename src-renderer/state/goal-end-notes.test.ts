import { describe, expect, it } from 'vitest';
import { events, goal } from './reducers/record-fixtures';
import { endedGoals, goalEndBody } from './goal-end-notes';

describe('goals ended, for background notes', () => {
  it('are those seen working that then stopped by themselves — not one paused, cleared, or already over when first heard of', () => {
    const active = new Set<string>();
    const seen = endedGoals(
      active,
      events(
        { kind: 'goal.changed', goal: goal({ goalId: 'old', status: 'complete' }) },
        { kind: 'goal.changed', goal: goal({ goalId: 'g1', status: 'active' }) },
        { kind: 'goal.changed', goal: goal({ goalId: 'g2', status: 'active' }) },
        { kind: 'goal.changed', goal: goal({ goalId: 'g3', status: 'active' }) },
        { kind: 'goal.changed', goal: goal({ goalId: 'g4', status: 'active' }) },
      ),
    );
    expect(seen).toEqual([]);
    const ended = endedGoals(
      active,
      events(
        { kind: 'goal.changed', goal: goal({ goalId: 'g1', status: 'complete', objective: 'Ship it' }) },
        { kind: 'goal.changed', goal: goal({ goalId: 'g2', status: 'paused' }) },
        { kind: 'goal.changed', goal: goal({ goalId: 'g3', status: 'active', cleared: true }) },
        { kind: 'goal.changed', goal: goal({ goalId: 'g4', status: 'budgetLimited' }) },
      ),
    );
    expect(ended.map((record) => [record.goalId, record.status])).toEqual([
      ['g1', 'complete'],
      ['g4', 'budgetLimited'],
    ]);
    // Told once: the same end reported again is not a second note.
    expect(
      endedGoals(active, events({ kind: 'goal.changed', goal: goal({ goalId: 'g1', status: 'complete' }) })),
    ).toEqual([]);
  });

  it('says whether the goal was reached, blocked or stopped at a limit', () => {
    expect(goalEndBody('complete', 'Ship it')).toBe('Goal reached: Ship it');
    expect(goalEndBody('blocked', 'Ship it')).toBe('The goal is blocked: Ship it');
    expect(goalEndBody('iterationLimited', 'Ship it')).toBe('The goal stopped at its limit: Ship it');
  });
});
