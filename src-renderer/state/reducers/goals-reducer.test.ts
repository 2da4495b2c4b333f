import { describe, expect, it } from 'vitest';
import { applyGoal, reduceGoalEvent, setSessionGoal } from './goals-reducer';
import { events, goal } from './record-fixtures';

describe('the goals reducer', () => {
  it('follows a goal through its revisions and ignores older ones', () => {
    let goals = applyGoal({}, goal({ goalId: 'g1', revision: 1 }));
    goals = applyGoal(goals, goal({ goalId: 'g1', revision: 3, iterations: 2 }));
    expect(goals.s1?.iterations).toBe(2);
    expect(applyGoal(goals, goal({ goalId: 'g1', revision: 2 }))).toBe(goals);
  });

  it('lets a cleared goal leave the session, but not clear a newer goal', () => {
    let goals = applyGoal({}, goal({ goalId: 'g1' }));
    goals = applyGoal(goals, goal({ goalId: 'g1', revision: 2, cleared: true }));
    expect(goals.s1).toBeNull();
    goals = applyGoal(goals, goal({ goalId: 'g2', createdAt: 2000 }));
    expect(applyGoal(goals, goal({ goalId: 'g1', revision: 3, cleared: true }))).toBe(goals);
    expect(applyGoal(goals, goal({ goalId: 'g0', createdAt: 10 }))).toBe(goals);
  });

  it('takes goal.get answers without going back in revision', () => {
    const goals = setSessionGoal({}, 's1', goal({ goalId: 'g1', revision: 5 }));
    expect(setSessionGoal(goals, 's1', goal({ goalId: 'g1', revision: 4 }))).toBe(goals);
    expect(setSessionGoal(goals, 's1', null).s1).toBeNull();
  });

  it('forgets a removed session', () => {
    const [changed, removed] = events(
      { kind: 'goal.changed', goal: goal({ goalId: 'g1' }) },
      { kind: 'session.removed', sessionId: 's1' },
    );
    const goals = reduceGoalEvent({}, changed!);
    expect(goals.s1?.goalId).toBe('g1');
    expect(reduceGoalEvent(goals, removed!)).toEqual({});
  });
});
