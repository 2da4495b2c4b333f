import { afterEach, describe, expect, it } from 'vitest';
import type { Outcome } from '../../src-shared/errors';
import type { InteractionAnswer } from '../../src-shared/interaction-model';
import type { OperationInput, OperationName, OperationResult } from '../../src-shared/operations';
import type { ActResult, RouteResult } from '../../src-shared/workhub-model';
import { WORKHUB_SESSION_ID } from '../../src-shared/workhub-model';
import { startTestHost, type TestHost } from '../testing/host-fixture';
import { recordFingerprint } from '../testing/record-fingerprint';
import { waitFor } from '../testing/wait-for';

/**
 * Invariant 9, audited: every command with a client-chosen id, replayed in every state its subject
 * can be in — pending, answered, completed, failed, and after a restart — returns the recorded outcome:
 * never a conflict, never a second effect (the record is byte-for-byte what it was before the replay).
 */

let hosts: TestHost[] = [];
afterEach(async () => {
  for (const host of hosts.reverse()) await host.close();
  hosts = [];
});

async function start(dataDir?: string): Promise<TestHost> {
  const host = await startTestHost(dataDir === undefined ? {} : { dataDir });
  hosts.push(host);
  return host;
}

/** Restarts the host on the same data directory (the after-restart column). */
async function restart(t: TestHost): Promise<TestHost> {
  await t.host.close();
  return start(t.dataDir);
}

interface Command<N extends OperationName> {
  readonly op: N;
  readonly input: OperationInput<N>;
}
const command = <N extends OperationName>(op: N, input: OperationInput<N>): Command<N> => ({ op, input });

/**
 * Replays each command (as first sent) and checks it answers `ok` without changing the record; returns
 * the outcomes so a test can compare them with the first answers.
 */
async function replayChangesNothing(
  t: TestHost,
  commands: ReadonlyArray<Command<OperationName>>,
): Promise<Array<Outcome<unknown>>> {
  const outcomes: Array<Outcome<unknown>> = [];
  const before = recordFingerprint(t.dataDir);
  for (const sent of commands) outcomes.push(await t.host.invoke(sent.op, sent.input as never));
  expect(recordFingerprint(t.dataDir)).toBe(before);
  return outcomes;
}

function expectAllOk(outcomes: ReadonlyArray<Outcome<unknown>>) {
  for (const outcome of outcomes)
    expect(outcome.ok ? 'ok' : `${outcome.error.code}: ${outcome.error.message}`).toBe('ok');
}

async function settled(t: TestHost, sessionId: string) {
  await waitFor(async () => (await t.call('session.get', { sessionId })).activeTurn === null, {
    message: 'the session to settle',
  });
}

const ANSWER: InteractionAnswer = {
  action: 'accept',
  answers: {
    target: { optionIds: ['production'] },
    checks: { optionIds: ['lint', 'unit'], text: 'smoke' },
    notes: { optionIds: [], text: 'Ship before Friday' },
  },
};

describe('replaying a command with a client-chosen id', () => {
  it('turn.start: running, waiting, answered, completed, failed, stopped — and after a restart', async () => {
    let t = await start();
    const sessionId = (await t.call('session.create', { title: 'Replays' })).session.sessionId;
    const sent = {
      completed: command('turn.start', { sessionId, turnId: 'done', text: 'Hello there' }),
      failed: command('turn.start', { sessionId, turnId: 'broken', text: '/fail' }),
      answered: command('turn.start', { sessionId, turnId: 'asked', text: '/ask' }),
      stopped: command('turn.start', { sessionId, turnId: 'stopped', text: '/hold' }),
      running: command('turn.start', { sessionId, turnId: 'held', text: '/hold' }),
    };
    const firstTurn = async (key: keyof typeof sent) => {
      const outcome = await t.host.invoke('turn.start', sent[key].input);
      expect(outcome).toMatchObject({ ok: true, result: { created: true } });
    };
    await firstTurn('completed');
    await t.waitForTurn(sessionId, 'done', ['completed']);
    await firstTurn('failed');
    await t.waitForTurn(sessionId, 'broken', ['failed']);
    await firstTurn('answered');
    await t.waitForTurn(sessionId, 'asked', ['waiting']);
    // Pending: waiting on a question.
    expectAllOk(await replayChangesNothing(t, [sent.answered, sent.completed, sent.failed]));
    const [question] = (await t.call('interaction.list', { sessionId, status: 'pending' })).interactions;
    await t.call('interaction.answer', { interactionId: question?.interactionId ?? '', answer: ANSWER });
    await t.waitForTurn(sessionId, 'asked', ['completed']);
    await firstTurn('stopped');
    await t.call('turn.stop', { sessionId });
    await firstTurn('running');
    await t.waitForTurn(sessionId, 'held', ['running']);
    const replays = await replayChangesNothing(t, Object.values(sent));
    expectAllOk(replays);
    for (const replay of replays) expect(replay).toMatchObject({ ok: true, result: { created: false } });

    t = await restart(t);
    const afterRestart = await replayChangesNothing(t, Object.values(sent));
    expectAllOk(afterRestart);
    expect(
      afterRestart.map((outcome) =>
        outcome.ok ? (outcome.result as OperationResult<'turn.start'>).turn.status : null,
      ),
    ).toEqual(['completed', 'failed', 'completed', 'cancelled', 'interrupted']);
  });

  it('turn.message.submit: started, queued, delivered — and after a restart', async () => {
    let t = await start();
    const sessionId = (await t.call('session.create', { title: 'Replays' })).session.sessionId;
    const started = command('turn.message.submit', {
      sessionId,
      messageId: 'm-now',
      text: '/hold',
      placement: 'next_turn',
    });
    const queued = command('turn.message.submit', {
      sessionId,
      messageId: 'm-next',
      text: 'Then this',
      placement: 'next_turn',
    });
    expect(await t.host.invoke(started.op, started.input)).toMatchObject({
      ok: true,
      result: { disposition: 'started' },
    });
    await waitFor(async () => (await t.call('session.get', { sessionId })).activeTurn !== null, {
      message: 'the held turn',
    });
    expect(await t.host.invoke(queued.op, queued.input)).toMatchObject({ ok: true, result: { disposition: 'queued' } });
    // Pending: one running, one queued.
    expectAllOk(await replayChangesNothing(t, [started, queued]));
    await t.call('turn.stop', { sessionId });
    await waitFor(
      async () =>
        (await t.call('turn.message.query', { sessionId, messageIds: ['m-next'] })).messages[0]?.state !== 'queued',
      {
        message: 'the queued message to be delivered',
      },
    );
    await settled(t, sessionId);
    // Completed: both delivered.
    expectAllOk(await replayChangesNothing(t, [started, queued]));
    const turnsBefore = (await t.call('transcript.page', { sessionId })).turns.length;

    t = await restart(t);
    expectAllOk(await replayChangesNothing(t, [started, queued]));
    expect((await t.call('transcript.page', { sessionId })).turns).toHaveLength(turnsBefore);
  });

  it('interaction.answer: answered and its continuation completed — and after a restart', async () => {
    let t = await start();
    const sessionId = (await t.call('session.create', { title: 'Replays' })).session.sessionId;
    const answered: Array<Command<'interaction.answer'>> = [];
    for (const turnId of ['a1', 'a2']) {
      await t.call('turn.start', { sessionId, turnId, text: '/ask' });
      await t.waitForTurn(sessionId, turnId, ['waiting']);
      const [pending] = (await t.call('interaction.list', { sessionId, status: 'pending' })).interactions;
      const sent = command('interaction.answer', { interactionId: pending?.interactionId ?? '', answer: ANSWER });
      const first = await t.host.invoke(sent.op, sent.input);
      expect(first.ok).toBe(true);
      answered.push(sent);
      await t.waitForTurn(sessionId, turnId, ['completed']);
    }
    const outcomes = await replayChangesNothing(t, answered);
    expectAllOk(outcomes);
    for (const outcome of outcomes)
      expect(outcome).toMatchObject({ ok: true, result: { interaction: { status: 'answered' } } });

    t = await restart(t);
    expectAllOk(await replayChangesNothing(t, answered));
  });

  it('workhub.route and workhub.act: done, awaiting a choice, choice answered, choice closed, refused — and after a restart', async () => {
    let t = await start();
    const report = (await t.call('session.create', { title: 'Quarterly report' })).session.sessionId;
    await t.call('session.create', { title: 'Budget plan 2025' });
    const budget = (await t.call('session.create', { title: 'Budget plan 2026' })).session.sessionId;
    const routes: Array<Command<'workhub.route'>> = [];
    const route = async (requestId: string, text: string): Promise<RouteResult> => {
      const sent = command('workhub.route', { requestId, text });
      routes.push(sent);
      return t.call(sent.op, sent.input);
    };
    const acts: Array<Command<'workhub.act'>> = [];
    const act = async (requestId: string, routed: RouteResult) => {
      const sent = command('workhub.act', {
        actionId: `${requestId}.act`,
        requestId,
        proposal: routed.proposal,
        candidateSetId: routed.candidateSetId,
      });
      acts.push(sent);
      return t.host.invoke(sent.op, sent.input);
    };
    const refOf = (routed: RouteResult, sessionId: string) =>
      routed.candidates.find((candidate) => candidate.sessionId === sessionId)?.candidateRef ?? '';

    // Done: a hand-off that ran to completion.
    expect((await act('r-done', await route('r-done', 'Add the revenue chart to the quarterly report'))).ok).toBe(true);
    await t.waitForTurn(report, 'delegation-r-done.act', ['completed']);
    // Pending: a choice form put up.
    const choose = await route('r-choice', 'Update the budget plan totals');
    const asked = await act('r-choice', choose);
    const formId = asked.ok && asked.result.kind === 'awaiting_choice' ? asked.result.interactionId : '';
    expectAllOk(await replayChangesNothing(t, [...routes, ...acts]));
    // Answered: the pick carried out.
    await t.call('interaction.answer', {
      interactionId: formId,
      answer: { action: 'accept', values: { target: refOf(choose, budget) } },
    });
    await t.waitForTurn(budget, 'delegation-r-choice.act', ['completed']);
    await settled(t, WORKHUB_SESSION_ID);
    // Closed: a second form cancelled.
    const closing = await act('r-closed', await route('r-closed', 'Update the budget plan notes'));
    const closedId = closing.ok && closing.result.kind === 'awaiting_choice' ? closing.result.interactionId : '';
    await t.call('interaction.answer', { interactionId: closedId, answer: { action: 'cancel' } });
    await settled(t, WORKHUB_SESSION_ID);
    // Failed: refused because its target was archived since.
    const refusedRoute = await route('r-refused', 'Add a table to the quarterly report');
    await t.call('session.archive', { sessionId: report, archived: true });
    const refused = await act('r-refused', refusedRoute);
    expect(refused.ok ? null : refused.error.code).toBe('candidate_set_stale');
    // A refusal leaves no record (its id stays free), so its replay is refused the same way only while
    // the reason holds: the target stays archived for the replays below.

    const firstAnswers = await replayChangesNothing(t, acts);
    expect(
      firstAnswers.map((outcome) => (outcome.ok ? (outcome.result as ActResult).kind : outcome.error.code)),
    ).toEqual(['delegated', 'delegated', 'awaiting_choice', 'candidate_set_stale']);
    expectAllOk(await replayChangesNothing(t, routes));

    t = await restart(t);
    expect(await replayChangesNothing(t, acts)).toEqual(firstAnswers);
    expectAllOk(await replayChangesNothing(t, routes));
    expect((await t.call('workhub.delegations', {})).delegations).toHaveLength(2);
  });

  it('goal.control (with its control id): paused, resumed, limits set, cleared — after the goal moved on, and after a restart', async () => {
    let t = await start();
    const sessionId = (await t.call('session.create', { title: 'Replays' })).session.sessionId;
    const { goal } = await t.call('goal.arm', {
      sessionId,
      objective: 'Please block here',
      tokenBudget: null,
      maxIterations: null,
    });
    // The goal blocks on its first turn; then the person resumes it, limits it, pauses... each command once.
    const blocked = await waitFor(
      async () => {
        const now = (await t.call('goal.get', { sessionId })).goal;
        return now?.status === 'blocked' ? now : null;
      },
      { message: 'the goal to block' },
    );
    await settled(t, sessionId);
    const controls: Array<Command<'goal.control'>> = [];
    const control = async (input: OperationInput<'goal.control'>) => {
      const sent = command('goal.control', input);
      controls.push(sent);
      return (await t.call(sent.op, sent.input)).goal;
    };
    const limited = await control({
      sessionId,
      goalId: goal.goalId,
      expectedRevision: blocked.revision,
      controlId: 'ctl-limits',
      action: 'setLimits',
      maxIterations: 5,
    });
    const resumed = await control({
      sessionId,
      goalId: goal.goalId,
      expectedRevision: limited.revision,
      controlId: 'ctl-resume',
      action: 'resume',
    });
    // The goal moves on by itself (it blocks again), so the revisions those commands read are stale now.
    await waitFor(async () => ((await t.call('goal.get', { sessionId })).goal?.revision ?? 0) > resumed.revision + 1, {
      message: 'the goal to move on',
    });
    await settled(t, sessionId);
    const now = (await t.call('goal.get', { sessionId })).goal;
    const cleared = await control({
      sessionId,
      goalId: goal.goalId,
      expectedRevision: now?.revision ?? 0,
      controlId: 'ctl-clear',
      action: 'clear',
    });
    const first = [limited, resumed, cleared];

    const replays = await replayChangesNothing(t, controls);
    expect(replays).toEqual(first.map((answered) => ({ ok: true, result: { goal: answered } })));
    t = await restart(t);
    expect(await replayChangesNothing(t, controls)).toEqual(
      first.map((answered) => ({ ok: true, result: { goal: answered } })),
    );
    // The same id for another change is not a replay.
    const misuse = await t.invoke('goal.control', {
      sessionId,
      goalId: goal.goalId,
      expectedRevision: 0,
      controlId: 'ctl-resume',
      action: 'pause',
    });
    expect(misuse.ok ? null : misuse.error.code).toBe('operation_conflict');
  });
});
