import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GoalRecord, GoalStatus } from '../../src-shared/goal-model';
import { withRawDatabase } from '../storage/testing/raw-database';
import { startTestHost, type TestHost } from '../testing/host-fixture';
import { recordFingerprint } from '../testing/record-fingerprint';
import { waitFor } from '../testing/wait-for';

let t: TestHost;
let sessionId: string;
beforeEach(async () => {
  t = await startTestHost();
  sessionId = (await t.call('session.create', {})).session.sessionId;
});
afterEach(async () => {
  await t.close();
});

const goalNow = async () => (await t.call('goal.get', { sessionId })).goal;
const waitForGoal = (statuses: readonly GoalStatus[], host: TestHost = t) =>
  waitFor(
    async () => {
      const { goal } = await host.call('goal.get', { sessionId });
      return goal !== null && statuses.includes(goal.status) ? goal : null;
    },
    { message: `goal to reach ${statuses.join('/')}`, timeoutMs: 10_000 },
  );
const goalTurns = async (host: TestHost = t) =>
  (await host.call('transcript.page', { sessionId, limit: 500 })).turns.filter((turn) => turn.origin === 'goal');
const idle = (host: TestHost = t) =>
  waitFor(async () => (await host.call('session.get', { sessionId })).activeTurn === null, {
    message: 'the session to be idle',
  });

async function arm(
  objective: string,
  tokenBudget: number | null = null,
  maxIterations: number | null = null,
): Promise<GoalRecord> {
  return (await t.call('goal.arm', { sessionId, objective, tokenBudget, maxIterations })).goal;
}

describe('goals', () => {
  it('keeps taking goal turns until the agent completes the goal', async () => {
    await arm('Write the summary, finish after 3');
    const goal = await waitForGoal(['complete']);
    expect(goal).toMatchObject({ iterations: 3, tokensUsed: 1500, lastReason: 'Done after 3 turns.' });
    const turns = await goalTurns();
    expect(turns).toHaveLength(3);
    expect(turns.every((turn) => turn.status === 'completed')).toBe(true);
    expect(turns[0]?.text).toMatch(
      /^Goal turn 1\. Keep working toward this goal:\n\nWrite the summary, finish after 3/,
    );
    expect(turns[2]?.text).toContain('So far: 2 turns done (no cap); 1000 tokens used (no budget).');
    // An untitled session takes its name from the objective, not from the goal prompt.
    expect((await t.call('session.get', { sessionId })).session.title).toBe('Write the summary, finish after 3');
  });

  it('stops at the token budget with budgetLimited and says why', async () => {
    await arm('Keep going', 1000);
    const goal = await waitForGoal(['budgetLimited']);
    expect(goal).toMatchObject({ tokensUsed: 1000, iterations: 2 });
    expect(goal.lastReason).toMatch(/token budget is used up \(1000 of 1000\)/);
    const resume = await t.invoke('goal.control', {
      sessionId,
      goalId: goal.goalId,
      expectedRevision: goal.revision,
      action: 'resume',
    });
    expect(resume.ok ? null : resume.error.message).toMatch(/Raise the limit/);
  });

  it('stops at the turn cap with iterationLimited; raising the cap and resuming goes on', async () => {
    const armed = await arm('Keep going', null, 2);
    const limited = await waitForGoal(['iterationLimited']);
    expect(limited.iterations).toBe(2);
    const raised = await t.call('goal.control', {
      sessionId,
      goalId: armed.goalId,
      expectedRevision: limited.revision,
      action: 'setLimits',
      maxIterations: 3,
    });
    await t.call('goal.control', {
      sessionId,
      goalId: armed.goalId,
      expectedRevision: raised.goal.revision,
      action: 'resume',
    });
    expect((await waitForGoal(['iterationLimited'])).iterations).toBe(3);
  });

  it('a provider usage error sets usageLimited; three failed turns in a row block the goal', async () => {
    await arm('Hit the quota');
    expect((await waitForGoal(['usageLimited'])).lastReason).toMatch(/quota/);
    await t.call('goal.control', {
      sessionId,
      goalId: (await goalNow())!.goalId,
      expectedRevision: (await goalNow())!.revision,
      action: 'clear',
    });
    await idle();
    await arm('This will fail every time');
    const blocked = await waitForGoal(['blocked']);
    expect(blocked.lastReason).toMatch(
      /^3 goal turns failed in a row\. Last error: The scripted goal turn failed on purpose\./,
    );
    const failing = (await goalTurns()).filter((turn) => turn.text.includes('fail every time'));
    expect(failing.map((turn) => turn.status)).toEqual(['failed', 'failed', 'failed']);
  });

  it('the agent can block it; the model tools cannot pause or resume', async () => {
    await arm('Please block here');
    const blocked = await waitForGoal(['blocked']);
    expect(blocked.lastReason).toBe('The objective asks me to stop and wait for you.');
    await idle();
    const { connections } = await t.call('connection.list', {});
    expect(connections).toHaveLength(1);
    // The update_goal tool refuses any status but complete/blocked.
    await t.call('turn.start', {
      sessionId,
      turnId: 'try-pause',
      text: '/tool update_goal {"status":"paused","reason":"no"}',
    });
    await t.waitForTurn(sessionId, 'try-pause', ['completed']);
    const page = await t.call('transcript.page', { sessionId });
    expect(page.items.filter((item) => item.kind === 'tool_result').at(-1)?.data).toMatchObject({ isError: true });
    expect((await goalNow())?.status).toBe('blocked');
  });

  it('a stale expectedRevision changes nothing', async () => {
    const goal = await arm('Please block here');
    const blocked = await waitForGoal(['blocked']);
    await idle();
    expect(blocked.revision).toBeGreaterThan(goal.revision);
    const before = recordFingerprint(t.dataDir);
    for (const action of ['resume', 'clear'] as const) {
      const stale = await t.invoke('goal.control', {
        sessionId,
        goalId: goal.goalId,
        expectedRevision: goal.revision,
        action,
      });
      expect(stale.ok ? null : stale.error.code).toBe('revision_conflict');
    }
    const limits = await t.invoke('goal.control', {
      sessionId,
      goalId: goal.goalId,
      expectedRevision: goal.revision,
      action: 'setLimits',
      tokenBudget: 5000,
    });
    expect(limits.ok ? null : limits.error.code).toBe('revision_conflict');
    expect(recordFingerprint(t.dataDir)).toBe(before);
    expect(await goalNow()).toEqual(blocked);
  });

  it('Stop on a goal turn pauses the goal, and no new goal turn starts', async () => {
    await arm('Keep going');
    await waitFor(async () => (await t.call('session.get', { sessionId })).activeTurn?.origin === 'goal', {
      message: 'a goal turn',
    });
    await t.call('turn.stop', { sessionId });
    const paused = await waitForGoal(['paused']);
    expect(paused.lastReason).toBe('Stopped by you');
    const count = (await goalTurns()).length;
    await idle();
    expect((await goalTurns()).length).toBe(count);
  });

  it("a person's own message goes first, then the goal resumes", async () => {
    await arm('Keep going', null, 3);
    await waitFor(async () => (await t.call('session.get', { sessionId })).activeTurn?.origin === 'goal', {
      message: 'a goal turn',
    });
    await t.call('turn.message.submit', {
      sessionId,
      messageId: 'mine',
      text: 'A question of mine',
      placement: 'next_turn',
    });
    await waitForGoal(['iterationLimited']);
    const turns = (await t.call('transcript.page', { sessionId, limit: 500 })).turns;
    const mine = turns.findIndex((turn) => turn.turnId === 'mine');
    expect(mine).toBeGreaterThan(0);
    expect(turns[mine - 1]?.origin).toBe('goal');
    expect(turns[mine + 1]?.origin).toBe('goal');
    expect(turns.filter((turn) => turn.origin === 'goal')).toHaveLength(3);
  });

  it('goal.arm is refused while a goal is not complete or cleared; a cleared goal stays in history', async () => {
    const first = await arm('Please block here');
    await waitForGoal(['blocked']);
    const refused = await t.invoke('goal.arm', {
      sessionId,
      objective: 'Another',
      tokenBudget: null,
      maxIterations: null,
    });
    expect(refused.ok ? null : refused.error.code).toBe('operation_conflict');
    const current = await goalNow();
    await t.call('goal.control', {
      sessionId,
      goalId: first.goalId,
      expectedRevision: current!.revision,
      action: 'clear',
    });
    expect(await goalNow()).toBeNull();
    await arm('Finish after 1');
    await waitForGoal(['complete']);
    const { goals } = await t.call('goal.history', { sessionId });
    expect(goals.map((goal) => [goal.objective, goal.cleared])).toEqual([
      ['Finish after 1', false],
      ['Please block here', true],
    ]);
  });

  it('goal.list reads the current goals of many sessions at once', async () => {
    const other = (await t.call('session.create', {})).session.sessionId;
    const none = (await t.call('session.create', {})).session.sessionId;
    await arm('Please block here');
    await t.call('goal.arm', {
      sessionId: other,
      objective: 'Please block here too',
      tokenBudget: null,
      maxIterations: null,
    });
    const { goals } = await t.call('goal.list', { sessionIds: [sessionId, other, none, 'ghost'] });
    expect(goals.map((goal) => goal.sessionId).sort()).toEqual([sessionId, other].sort());
    await idle();
  });

  it('/goal makes the scripted agent create the goal through the model tool', async () => {
    await t.call('turn.start', {
      sessionId,
      turnId: 'set',
      text: '/goal Tidy the notes, finish after 2 budget 5000 iterations 4',
    });
    const goal = await waitForGoal(['complete']);
    expect(goal).toMatchObject({
      objective: 'Tidy the notes, finish after 2',
      tokenBudget: 5000,
      maxIterations: 4,
      createdBy: 'agent',
      iterations: 2,
    });
  });

  it('after a restart an active goal continues its interrupted turn (resume, not retry); a paused one stays paused', async () => {
    const other = (await t.call('session.create', {})).session.sessionId;
    await t.call('goal.arm', { sessionId: other, objective: 'Keep going', tokenBudget: null, maxIterations: null });
    await pauseGoal(t, other);
    await arm('Keep going', null, 100);
    const interrupted = await waitFor(
      async () => {
        const active = (await t.call('session.get', { sessionId })).activeTurn;
        return active?.origin === 'goal' ? active : null;
      },
      { message: 'a goal turn' },
    );
    const pausedBefore = (await t.call('goal.get', { sessionId: other })).goal;
    await t.host.close();
    const reopened = await startTestHost({ dataDir: t.dataDir });
    try {
      const resumed = await waitFor(
        async () => {
          const { turn } = await reopened.call('turn.query', { sessionId, turnId: interrupted.turnId });
          return turn.runs.length >= 2 ? turn : null;
        },
        { message: 'the interrupted goal turn to resume' },
      );
      expect(resumed.runs[0]).toMatchObject({ status: 'interrupted', terminalReason: 'app_shutdown' });
      expect(resumed.runs[1]?.kind).toBe('resume');
      const stillPaused = (await reopened.call('goal.get', { sessionId: other })).goal;
      expect(stillPaused).toMatchObject({
        status: 'paused',
        iterations: pausedBefore?.iterations,
        lastReason: 'Paused by you',
      });
      const otherTurns = (await reopened.call('transcript.page', { sessionId: other })).turns;
      expect(otherTurns.every((turn) => turn.latestRun.kind === 'initial')).toBe(true);
      await pauseGoal(reopened, sessionId);
    } finally {
      await reopened.close();
    }
  });
});

describe('an active goal with nothing running', () => {
  /**
   * Leaves the record as a crash at the end of the last goal turn can: the goal active, at the count
   * and revision that turn started with, the turn itself terminal, nothing running or queued.
   */
  function crashAtTheEndOfTheLastGoalTurn(dataDir: string): string {
    return withRawDatabase(dataDir, (db) => {
      const last = db
        .prepare(
          'SELECT turn_id, goal_id FROM turns WHERE session_id = ? AND goal_id IS NOT NULL ORDER BY ordinal DESC LIMIT 1',
        )
        .get(sessionId) as {
        turn_id: string;
        goal_id: string;
      };
      const [, count, revision] = /-(\d+)-(\d+)$/.exec(last.turn_id) ?? [];
      db.prepare("UPDATE goals SET status = 'active', iterations = ?, revision = ? WHERE goal_id = ?").run(
        Number(count) - 1,
        Number(revision),
        last.goal_id,
      );
      return last.turn_id;
    });
  }

  it('takes its next turn after a restart, whatever ended the last one (stopped, or completed but not yet counted)', async () => {
    await arm('Keep going', null, 100);
    await waitFor(async () => (await t.call('session.get', { sessionId })).activeTurn?.origin === 'goal', {
      message: 'a goal turn',
    });
    await t.call('turn.stop', { sessionId });
    await waitForGoal(['paused']);
    await idle();
    await t.host.close();
    const stopped = crashAtTheEndOfTheLastGoalTurn(t.dataDir);

    let reopened = await startTestHost({ dataDir: t.dataDir });
    try {
      const next = await waitFor(
        async () => {
          const turns = await goalTurns(reopened);
          return turns.length >= 2 ? turns : null;
        },
        { message: 'the next goal turn after a stopped one', timeoutMs: 20_000 },
      );
      expect(next[0]).toMatchObject({ turnId: stopped, status: 'cancelled' });
      expect(next[1]?.turnId).not.toBe(stopped);
      await reopened.waitForTurn(sessionId, next[1]?.turnId ?? '', ['completed']);
      await pauseGoal(reopened, sessionId);
      await idle(reopened);
    } finally {
      await reopened.close();
    }

    // A goal turn that completed but whose count the crash lost: the next one still starts.
    const completed = crashAtTheEndOfTheLastGoalTurn(t.dataDir);
    reopened = await startTestHost({ dataDir: t.dataDir });
    try {
      const after = await waitFor(
        async () => {
          const turns = await goalTurns(reopened);
          const index = turns.findIndex((turn) => turn.turnId === completed);
          return index >= 0 && turns.length > index + 1 ? turns.slice(index) : null;
        },
        { message: 'a goal turn after an uncounted one', timeoutMs: 20_000 },
      );
      expect(after[0]?.status).toBe('completed');
      expect(after[1]?.turnId).toBe(`${completed}-2`);
      await pauseGoal(reopened, sessionId);
      await idle(reopened);
    } finally {
      await reopened.close();
    }
  }, 60_000);
});

/** Pauses a session's goal, re-reading the revision while the driver moves it. */
async function pauseGoal(host: TestHost, session: string): Promise<void> {
  await waitFor(
    async () => {
      const { goal } = await host.call('goal.get', { sessionId: session });
      if (goal === null || goal.status === 'paused') return true;
      const outcome = await host.invoke('goal.control', {
        sessionId: session,
        goalId: goal.goalId,
        expectedRevision: goal.revision,
        action: 'pause',
      });
      return outcome.ok;
    },
    { message: 'the goal to pause' },
  );
}
