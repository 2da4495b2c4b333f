import { describe, expect, it } from 'vitest';
import type { ChangeEvent } from '../../src-shared/events';
import type { RunSummary } from '../../src-shared/model';
import { startTestHost, useTempDirs, type TestHost } from '../testing/host-fixture';
import { waitFor } from '../testing/wait-for';

const dir = useTempDirs();

/** Every run a client was told about, by id. */
function runsSeen(events: readonly ChangeEvent[]): Set<string> {
  return new Set(events.flatMap((event) => (event.kind === 'turn.changed' ? [event.turn.latestRun.runId] : [])));
}

/** Every run of every goal turn of the session, oldest first. */
async function goalRuns(t: TestHost, sessionId: string): Promise<RunSummary[]> {
  const { turns } = await t.call('transcript.page', { sessionId, limit: 500 });
  const runs: RunSummary[] = [];
  for (const turn of turns.filter((candidate) => candidate.origin === 'goal')) {
    runs.push(...(await t.call('turn.query', { sessionId, turnId: turn.turnId })).turn.runs);
  }
  return runs;
}

describe('host shutdown', () => {
  it('starts nothing once shutdown begins: the goal turn ends app_shutdown, and the goal goes on after the restart', async () => {
    const dataDir = dir();
    const first = await startTestHost({ dataDir });
    const { session } = await first.call('session.create', {});
    const sessionId = session.sessionId;
    await first.call('goal.arm', {
      sessionId,
      objective: 'Polish the notes, finish after 60',
      tokenBudget: null,
      maxIterations: null,
    });
    await waitFor(
      async () => {
        const { goal } = await first.call('goal.get', { sessionId });
        const active = (await first.call('session.get', { sessionId })).activeTurn;
        return goal !== null && goal.iterations >= 2 && active?.origin === 'goal' && active.status === 'running';
      },
      { message: 'two goal turns done and a third running', timeoutMs: 10_000 },
    );

    const startedBeforeShutdown = runsSeen(first.events);
    await first.host.close();
    expect(runsSeen(first.events)).toEqual(startedBeforeShutdown);
    const second = await startTestHost({ dataDir });
    try {
      const runs = await goalRuns(second, sessionId);
      const firstHostRuns = runs.filter((run) => startedBeforeShutdown.has(run.runId));
      const otherRuns = runs.filter((run) => !startedBeforeShutdown.has(run.runId));
      // Nothing of the first host's was started after its shutdown began, and nothing was left running.
      expect(otherRuns.every((run) => run.kind === 'resume' && run.startedAt >= firstHostRuns.at(-1)!.endedAt!)).toBe(
        true,
      );
      expect(runs.filter((run) => run.terminalReason === 'app_restarted')).toEqual([]);
      expect(firstHostRuns.at(-1)).toMatchObject({ status: 'interrupted', terminalReason: 'app_shutdown' });

      const { goal } = await second.call('goal.get', { sessionId });
      expect(goal?.status).toBe('active');
      const iterations = goal?.iterations ?? 0;
      await waitFor(
        async () => ((await second.call('goal.get', { sessionId })).goal?.iterations ?? 0) > iterations + 1,
        {
          message: 'the goal to go on after the restart',
          timeoutMs: 10_000,
        },
      );
      const resumed = await goalRuns(second, sessionId);
      const interruptedAt = resumed.findIndex((run) => run.terminalReason === 'app_shutdown');
      expect(resumed[interruptedAt + 1]).toMatchObject({ kind: 'resume', status: 'completed' });
    } finally {
      await second.close();
    }
  });

  it('while draining, a turn that ends on its own starts neither its queued follow-up nor the next goal turn', async () => {
    const dataDir = dir();
    const first = await startTestHost({ dataDir });
    const chat = (await first.call('session.create', {})).session.sessionId;
    await first.call('turn.start', { sessionId: chat, turnId: 'busy', text: '/stream 6 40' });
    await first.call('turn.message.submit', {
      sessionId: chat,
      messageId: 'follow-up',
      text: 'and then this',
      placement: 'next_turn',
    });
    const goalSession = (await first.call('session.create', {})).session.sessionId;
    await first.call('goal.arm', {
      sessionId: goalSession,
      objective: 'Polish the notes, finish after 60',
      tokenBudget: null,
      maxIterations: null,
    });
    await waitFor(
      async () => (await first.call('session.get', { sessionId: goalSession })).activeTurn?.origin === 'goal',
      { message: 'a goal turn' },
    );

    first.host.drain();
    const seen = runsSeen(first.events);
    await first.waitForTurn(chat, 'busy', ['completed']);
    await waitFor(async () => (await first.call('session.get', { sessionId: goalSession })).activeTurn === null, {
      message: 'the goal turn to end',
    });
    expect(runsSeen(first.events)).toEqual(seen);
    expect((await first.call('turn.message.query', { sessionId: chat })).messages).toMatchObject([
      { messageId: 'follow-up', state: 'queued' },
    ]);
    expect((await first.call('goal.get', { sessionId: goalSession })).goal?.status).toBe('active');
    await first.host.close();

    const second = await startTestHost({ dataDir });
    try {
      expect((await second.waitForTurn(chat, 'follow-up', ['completed'])).origin).toBe('queued_message');
      await waitFor(
        async () => (await second.call('session.get', { sessionId: goalSession })).activeTurn?.origin === 'goal',
        { message: 'the goal to go on' },
      );
    } finally {
      await second.close();
    }
  });

  it('answers host_draining to work asked for once shutdown began', async () => {
    const t = await startTestHost({ dataDir: dir() });
    const { session } = await t.call('session.create', {});
    t.host.drain();
    const started = await t.invoke('turn.start', { sessionId: session.sessionId, turnId: 'late', text: 'hello' });
    expect(started.ok ? null : started.error.code).toBe('host_draining');
    expect((await t.call('session.get', { sessionId: session.sessionId })).activeTurn).toBeNull();
    await t.close();
  });
});
