import { describe, expect, it } from 'vitest';
import type { GoalChanges } from '../storage/goal-store';
import type { Stores } from '../storage/stores';
import { startTestHost, useTempDirs } from '../testing/host-fixture';
import { waitFor } from '../testing/wait-for';

const dir = useTempDirs();

describe('crash recovery of goals', () => {
  it('a crash while a goal turn ends never leaves the turn done and uncounted: after the restart the goal goes on', async () => {
    const dataDir = dir();
    let crashed = false;
    // The process "dies" at the write that counts the second goal turn: that write, and anything
    // after it, never happens.
    const crashAtSecondCount = (stores: Stores): Stores => ({
      ...stores,
      goals: {
        ...stores.goals,
        update(goalId: string, changes: GoalChanges, now: number) {
          const goal = stores.goals.get(goalId);
          if (!crashed && changes.addIterations === 1 && goal?.iterations === 1) {
            crashed = true;
            throw new Error('simulated crash');
          }
          return stores.goals.update(goalId, changes, now);
        },
      },
    });
    const first = await startTestHost({ dataDir, wrapStores: crashAtSecondCount });
    const { session } = await first.call('session.create', {});
    const sessionId = session.sessionId;
    await first.call('goal.arm', { sessionId, objective: 'Polish the notes, finish after 4', tokenBudget: null, maxIterations: null });
    await waitFor(() => crashed, { message: 'the simulated crash', timeoutMs: 10_000 });
    await first.host.close();

    const second = await startTestHost({ dataDir });
    try {
      const goal = await waitFor(
        async () => {
          const { goal: current } = await second.call('goal.get', { sessionId });
          return current?.status === 'complete' ? current : null;
        },
        { message: 'the goal to go on to completion after the restart', timeoutMs: 10_000 },
      );
      expect(goal).toMatchObject({ iterations: 4, lastReason: 'Done after 4 turns.' });
      const { turns } = await second.call('transcript.page', { sessionId, limit: 500 });
      expect(turns.filter((turn) => turn.origin === 'goal').map((turn) => turn.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
    } finally {
      await second.close();
    }
  });
});
