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
    await first.call('goal.arm', {
      sessionId,
      objective: 'Polish the notes, finish after 4',
      tokenBudget: null,
      maxIterations: null,
    });
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
      expect(turns.filter((turn) => turn.origin === 'goal').map((turn) => turn.status)).toEqual([
        'completed',
        'completed',
        'completed',
        'completed',
      ]);
    } finally {
      await second.close();
    }
  });
});

/** A ledger whose writes fail like a full disk's while `full.now` is set. */
function diskFullSwitch(): { full: { now: boolean; failures: number }; wrap: (stores: Stores) => Stores } {
  const full = { now: false, failures: 0 };
  return {
    full,
    wrap: (stores) => ({
      ...stores,
      ledger: {
        ...stores.ledger,
        append(runId, events, now) {
          if (full.now) {
            full.failures += 1;
            throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
          }
          stores.ledger.append(runId, events, now);
        },
      },
    }),
  };
}

describe('a full disk while a turn streams', () => {
  it('stops the turn, tells the person, and ends it failed (storage_full) as soon as a write succeeds again', async () => {
    const disk = diskFullSwitch();
    const t = await startTestHost({ dataDir: dir(), wrapStores: disk.wrap });
    try {
      const { session } = await t.call('session.create', {});
      const sessionId = session.sessionId;
      await t.call('turn.start', { sessionId, turnId: 'long', text: '/stream 2000 5' });
      await waitFor(() => t.events.filter((event) => event.kind === 'transcript.delta').length >= 5, {
        message: 'some streaming',
      });
      disk.full.now = true;
      const notice = await waitFor(() => t.events.find((event) => event.kind === 'host.notice'), {
        message: 'the person to be told',
      });
      expect(notice).toMatchObject({
        code: 'storage_full',
        sessionId,
        message: expect.stringMatching(/^The disk is full/),
      });
      // The record cannot say more yet; retries keep failing while the disk is full.
      const failures = disk.full.failures;
      await waitFor(() => disk.full.failures > failures + 1, { message: 'a retry while full' });
      expect((await t.call('turn.query', { sessionId, turnId: 'long' })).turn.status).toBe('running');

      disk.full.now = false;
      const ended = await t.waitForTurn(sessionId, 'long', ['failed']);
      expect(ended.latestRun).toMatchObject({
        status: 'failed',
        terminalReason: 'storage_full',
        errorCode: 'storage_full',
        errorMessage: 'Could not write to the database: database or disk is full (SQLITE_FULL).',
      });
      // Everything sent to clients before the failure is in the record.
      const page = await t.call('transcript.page', { sessionId, limit: 500 });
      const saved = page.items
        .filter((item) => item.kind === 'assistant_message')
        .map((item) => item.text)
        .join('');
      const shown = t.events
        .flatMap((event) =>
          event.kind === 'transcript.delta'
            ? [event.text]
            : event.kind === 'transcript.appended' && event.item.kind === 'assistant_message'
              ? [event.item.text]
              : [],
        )
        .join('');
      expect(saved).toBe(shown);
      // The session is free again.
      await t.call('turn.start', { sessionId, turnId: 'next', text: 'hello' });
      expect((await t.waitForTurn(sessionId, 'next', ['completed'])).status).toBe('completed');
    } finally {
      await t.close();
    }
  });
});
