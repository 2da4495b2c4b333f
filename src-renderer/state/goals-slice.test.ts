import { describe, expect, it } from 'vitest';
import { goal } from './reducers/record-fixtures';
import { setupStore } from './test-store';

describe('the goals slice', () => {
  it('arms a goal from the dialog’s fields', async () => {
    const { store, link } = setupStore();
    link.answer('goal.arm', (input) => ({
      ok: true,
      result: { goal: goal({ goalId: 'g1', objective: input.objective, tokenBudget: input.tokenBudget }) },
    }));
    expect(await store.getState().armGoal('s1', { objective: 'Ship it', budget: '5k', iterations: '' })).toEqual({
      ok: true,
    });
    expect(link.callsOf('goal.arm')).toEqual([
      { sessionId: 's1', objective: 'Ship it', tokenBudget: 5000, maxIterations: null },
    ]);
    expect(store.getState().goals.s1?.tokenBudget).toBe(5000);
  });

  it('re-reads a goal that moved on before a control reached it, and says so', async () => {
    const { store, link } = setupStore();
    link.answer('goal.control', () => ({ ok: false, error: { code: 'revision_conflict', message: 'stale' } }));
    link.answer('goal.get', () => ({ ok: true, result: { goal: goal({ goalId: 'g1', revision: 4, iterations: 3 }) } }));
    const outcome = await store.getState().controlGoal(goal({ goalId: 'g1', revision: 2 }), 'pause');
    expect(outcome.ok).toBe(false);
    expect(outcome.ok ? '' : outcome.message).toMatch(/re-read/);
    expect(store.getState().goals.s1?.revision).toBe(4);
  });

  it('reads the goals of listed sessions it does not know yet, in one goal.list', async () => {
    const { store, link } = setupStore();
    link.answer('goal.list', (input) => ({
      ok: true,
      result: { goals: input.sessionIds.includes('b') ? [goal({ goalId: 'gb', sessionId: 'b' })] : [] },
    }));
    // The store's own first load reads the listed session (s1) too; these reads are about a, b and c.
    const reads = () =>
      (link.callsOf('goal.list') as Array<{ sessionIds: string[] }>).filter((call) => !call.sessionIds.includes('s1'));
    await store.getState().loadGoals(['a', 'b']);
    expect(reads()).toEqual([{ sessionIds: ['a', 'b'] }]);
    expect(store.getState().goals.b?.goalId).toBe('gb');
    expect(store.getState().goals.a).toBeNull();
    await store.getState().loadGoals(['a', 'b', 'c']);
    expect(reads()).toEqual([{ sessionIds: ['a', 'b'] }, { sessionIds: ['c'] }]);
    expect(store.getState().goals.c).toBeNull();
  });
});
