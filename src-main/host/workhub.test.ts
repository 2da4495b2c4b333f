import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Proposal, RouteResult } from '../../src-shared/workhub-model';
import { WORKHUB_SESSION_ID } from '../../src-shared/workhub-model';
import { startTestHost, type TestHost } from '../testing/host-fixture';
import { recordFingerprint } from '../testing/record-fingerprint';
import { waitFor } from '../testing/wait-for';

let t: TestHost;
beforeEach(async () => {
  t = await startTestHost();
});
afterEach(async () => {
  await t.close();
});

let requests = 0;
async function route(text: string): Promise<RouteResult> {
  requests += 1;
  return t.call('workhub.route', { requestId: `req-${requests}`, text });
}
async function session(title: string): Promise<string> {
  return (await t.call('session.create', { title })).session.sessionId;
}
async function act(
  actionId: string,
  result: RouteResult,
  proposal: Proposal = result.proposal,
  confirmation?: 'user_confirmed',
) {
  return t.invoke('workhub.act', {
    actionId,
    proposal,
    candidateSetId: result.candidateSetId,
    ...(confirmation === undefined ? {} : { confirmation }),
  });
}
const refOf = (result: RouteResult, sessionId: string) =>
  result.candidates.find((candidate) => candidate.sessionId === sessionId)?.candidateRef ?? '';

describe('the WorkHub', () => {
  it('is one reserved session, kept out of the session list and protected', async () => {
    expect((await t.call('session.get', { sessionId: WORKHUB_SESSION_ID })).session.title).toBe('WorkHub');
    expect((await t.call('session.list', {})).sessions).toHaveLength(0);
    const remove = await t.invoke('session.remove', { sessionId: WORKHUB_SESSION_ID });
    expect(remove.ok ? null : remove.error.code).toBe('operation_unavailable');
  });

  it('ranks candidates by full-text relevance, says why, and caps them at 32', async () => {
    const report = await session('Quarterly report');
    await session('Garden plans');
    const talk = await session('Weekly sync');
    await t.call('turn.start', { sessionId: talk, turnId: 't1', text: 'Draft notes about the revenue chart' });
    await t.waitForTurn(talk, 't1', ['completed']);
    const { candidates } = await t.call('workhub.candidates', { query: 'quarterly report' });
    expect(candidates[0]).toMatchObject({ sessionId: report, why: 'title matches “quarterly report”', state: 'idle' });
    const revenue = await t.call('workhub.candidates', { query: 'revenue' });
    expect(revenue.candidates[0]).toMatchObject({ sessionId: talk, why: 'recent messages mention it' });
    for (let index = 0; index < 35; index += 1) await session(`Filler ${index}`);
    expect((await t.call('workhub.candidates', {})).candidates).toHaveLength(32);
  });

  it('delegates to a matching idle session: a turn runs there; the action id makes a retry (even after a restart) do nothing twice', async () => {
    const report = await session('Quarterly report');
    await session('Garden plans');
    const routed = await route('Add the revenue chart to the quarterly report');
    expect(routed.proposal).toEqual({
      kind: 'delegate_existing',
      candidateRef: refOf(routed, report),
      text: 'Add the revenue chart to the quarterly report',
    });
    const first = await act('act-1', routed);
    expect(first).toMatchObject({
      ok: true,
      result: {
        kind: 'delegated',
        queued: false,
        delegation: { targetSessionId: report, targetTurnId: 'delegation-act-1' },
      },
    });
    await t.waitForTurn(report, 'delegation-act-1', ['completed']);
    const again = await act('act-1', routed);
    expect(again).toEqual(first.ok ? { ok: true, result: first.result } : first);
    await t.host.close();
    const reopened = await startTestHost({ dataDir: t.dataDir });
    try {
      const afterRestart = await reopened.invoke('workhub.act', {
        actionId: 'act-1',
        proposal: routed.proposal,
        candidateSetId: routed.candidateSetId,
      });
      expect(afterRestart.ok && afterRestart.result.kind).toBe('delegated');
      const { turns } = await reopened.call('transcript.page', { sessionId: report });
      expect(turns.map((turn) => turn.turnId)).toEqual(['delegation-act-1']);
      expect((await reopened.call('workhub.delegations', {})).delegations).toEqual([
        expect.objectContaining({ actionId: 'act-1', status: 'completed', targetTitle: 'Quarterly report' }),
      ]);
      const different = await reopened.invoke('workhub.act', {
        actionId: 'act-1',
        proposal: { kind: 'clarify', question: 'Hm?' },
      });
      expect(different.ok ? null : different.error.code).toBe('operation_conflict');
    } finally {
      await reopened.close();
    }
  });

  it('queues the delegated text behind a running turn and says so', async () => {
    const report = await session('Quarterly report');
    await t.call('turn.start', { sessionId: report, turnId: 'mine', text: '/stream 30 20' });
    const routed = await route('Summarise the quarterly report afterwards');
    const result = await act('act-q', routed);
    expect(result).toMatchObject({ ok: true, result: { kind: 'delegated', queued: true } });
    await t.waitForTurn(report, 'delegation-act-q', ['completed']);
  });

  it('creates new work, answers here, and asks back', async () => {
    const created = await route('new: plan a birthday party for Sam');
    expect(created.proposal).toMatchObject({ kind: 'create_new', title: 'plan a birthday party for Sam' });
    const made = await act('act-new', created);
    expect(made.ok && made.result.kind === 'delegated' && made.result.createdSession).toBe(true);
    const sessionId = made.ok && made.result.kind === 'delegated' ? made.result.delegation.targetSessionId : '';
    await t.waitForTurn(sessionId, 'delegation-act-new', ['completed']);
    expect((await t.call('session.list', {})).sessions.map((s) => s.title)).toContain('plan a birthday party for Sam');
    const status = await route('What is running right now?');
    expect(status.proposal.kind).toBe('answer_here');
    expect((await act('act-status', status)).ok).toBe(true);
    const vague = await route('hmm');
    expect(vague.proposal.kind).toBe('clarify');
    const page = await t.call('transcript.page', { sessionId: WORKHUB_SESSION_ID });
    expect(page.items.filter((item) => item.kind === 'proposal')).toHaveLength(3);
  });

  it('a set goes stale when its target is archived, but not when unrelated sessions appear; a refusal leaves no record and its id free', async () => {
    const report = await session('Quarterly report');
    const routed = await route('Add a chart to the quarterly report');
    await session('Unrelated new work');
    await t.call('session.archive', { sessionId: report, archived: true });
    const before = recordFingerprint(t.dataDir);
    const stale = await act('act-stale', routed);
    expect(stale.ok ? null : stale.error.code).toBe('candidate_set_stale');
    expect(recordFingerprint(t.dataDir)).toBe(before);
    const missing = await t.invoke('workhub.action.get', { actionId: 'act-stale' });
    expect(missing.ok ? null : missing.error.code).toBe('not_found');
    expect((await t.call('workhub.delegations', {})).delegations).toHaveLength(0);
    await t.call('session.archive', { sessionId: report, archived: false });
    // Nothing was done, so the same id now carries out the action.
    const fresh = await act('act-stale', routed);
    expect(fresh).toMatchObject({ ok: true, result: { kind: 'delegated', delegation: { targetSessionId: report } } });
  });

  it('stop needs confirmation; stops only the delegated work (not_owned leaves a person’s own turn alone); resume continues it', async () => {
    const report = await session('Quarterly report');
    const delegated = await route('Run a long job in the quarterly report: /stream 400 20');
    expect((await act('act-run', delegated)).ok).toBe(true);
    await waitFor(
      async () => (await t.call('session.get', { sessionId: report })).activeTurn?.turnId === 'delegation-act-run',
      { message: 'the delegated turn' },
    );
    const stopRoute = await route('stop the quarterly report');
    expect(stopRoute.proposal).toEqual({ kind: 'stop_work', target: { candidateRef: refOf(stopRoute, report) } });
    const before = recordFingerprint(t.dataDir);
    const unconfirmed = await act('act-stop', stopRoute);
    expect(unconfirmed.ok ? null : unconfirmed.error.code).toBe('invalid_input');
    expect(recordFingerprint(t.dataDir)).toBe(before);
    const stopped = await act('act-stop', stopRoute, stopRoute.proposal, 'user_confirmed');
    expect(stopped).toMatchObject({ ok: true, result: { kind: 'stopped', outcome: 'stop_delivered' } });
    const { turn } = await t.call('turn.query', { sessionId: report, turnId: 'delegation-act-run' });
    expect(turn.latestRun).toMatchObject({ status: 'cancelled', terminalReason: 'workhub_stop' });

    const resumeRoute = await route('resume the quarterly report');
    expect(resumeRoute.proposal.kind).toBe('resume_work');
    expect(await act('act-resume', resumeRoute)).toMatchObject({ ok: true, result: { kind: 'resumed' } });
    await waitFor(
      async () =>
        (await t.call('turn.query', { sessionId: report, turnId: 'delegation-act-run' })).turn.runs.length === 2,
      { message: 'a resume run' },
    );
    await t.call('turn.stop', { sessionId: report });

    await t.call('turn.start', { sessionId: report, turnId: 'persons-own', text: '/hold' });
    const stopAgain = await route('stop the quarterly report');
    const notOwned = await act('act-stop-2', stopAgain, stopAgain.proposal, 'user_confirmed');
    expect(notOwned).toMatchObject({ ok: true, result: { kind: 'stopped', outcome: 'not_owned' } });
    expect((await t.call('turn.query', { sessionId: report, turnId: 'persons-own' })).turn.status).toBe('running');
    await t.call('turn.stop', { sessionId: report });
    const idle = await route('stop the quarterly report');
    expect(idle.proposal).toEqual({
      kind: 'answer_here',
      text: 'Nothing is running in “Quarterly report”, so there is nothing to stop.',
    });
    const done = await act('act-stop-3', stopAgain, stopAgain.proposal, 'user_confirmed');
    expect(done).toMatchObject({ ok: true, result: { kind: 'stopped', outcome: 'already_terminal' } });
  });

  it('resume after a restart targets the latest continuation of the delegated turn', async () => {
    const report = await session('Quarterly report');
    const routed = await route('Work on the quarterly report: /stream 300 20');
    await act('act-long', routed);
    await waitFor(async () => (await t.call('session.get', { sessionId: report })).activeTurn !== null, {
      message: 'the delegated turn to run',
    });
    await t.host.close();
    const reopened = await startTestHost({ dataDir: t.dataDir });
    try {
      const resumeRoute = await reopened.call('workhub.route', {
        requestId: 'resume-1',
        text: 'resume the quarterly report',
      });
      expect(resumeRoute.candidates.find((candidate) => candidate.sessionId === report)?.state).toBe('interrupted');
      const resumed = await reopened.invoke('workhub.act', {
        actionId: 'act-resume',
        proposal: resumeRoute.proposal,
        candidateSetId: resumeRoute.candidateSetId,
      });
      expect(resumed.ok && resumed.result.kind).toBe('resumed');
      const { turn } = await reopened.call('turn.query', { sessionId: report, turnId: 'delegation-act-long' });
      expect(turn.runs.map((run) => run.kind)).toEqual(['initial', 'resume']);
      await reopened.call('turn.stop', { sessionId: report });
    } finally {
      await reopened.close();
    }
  });

  it('correct moves the last request to another session: stops it there, delegates it here', async () => {
    const report = await session('Quarterly report');
    const garden = await session('Garden plans');
    const routed = await route('Order seeds for the quarterly report: /stream 300 20');
    await act('act-wrong', routed);
    await waitFor(async () => (await t.call('session.get', { sessionId: report })).activeTurn !== null, {
      message: 'the wrong delegation to run',
    });
    const fix = await route('no, the garden plans instead');
    expect(fix.proposal).toEqual({
      kind: 'correct',
      replacesActionId: 'act-wrong',
      target: { candidateRef: refOf(fix, garden) },
    });
    const unconfirmed = await act('act-fix', fix);
    expect(unconfirmed.ok ? null : unconfirmed.error.code).toBe('invalid_input');
    const corrected = await act('act-fix', fix, fix.proposal, 'user_confirmed');
    expect(corrected).toMatchObject({
      ok: true,
      result: { kind: 'corrected', stop: 'stop_delivered', delegation: { targetSessionId: garden } },
    });
    // A move is recorded as a move, not as a Stop.
    expect(
      (await t.call('turn.query', { sessionId: report, turnId: 'delegation-act-wrong' })).turn.latestRun,
    ).toMatchObject({
      status: 'cancelled',
      terminalReason: 'workhub_correct',
    });
    await t.call('turn.stop', { sessionId: garden });
  });

  it('asks with a form when several sessions fit; the answer completes the action and a cancelled form records nothing', async () => {
    const one = await session('Budget report 2025');
    const two = await session('Budget report 2026');
    const routed = await route('Update the budget report totals');
    expect(routed.proposal.kind).toBe('choose');
    const asked = await act('act-choose', routed);
    expect(asked).toMatchObject({ ok: true, result: { kind: 'awaiting_choice' } });
    const interactionId = asked.ok && asked.result.kind === 'awaiting_choice' ? asked.result.interactionId : '';
    const { interaction } = await t.call('interaction.get', { interactionId });
    expect(interaction.request).toMatchObject({ kind: 'form', fields: [{ id: 'target', type: 'single_select' }] });
    expect(await act('act-choose', routed)).toEqual(asked);
    await t.call('interaction.answer', {
      interactionId,
      answer: { action: 'accept', values: { target: refOf(routed, two) } },
    });
    await waitFor(async () => (await t.call('workhub.delegations', {})).delegations.length === 1, {
      message: 'the delegation',
    });
    const [delegation] = (await t.call('workhub.delegations', {})).delegations;
    expect(delegation).toMatchObject({ actionId: 'act-choose', targetSessionId: two });
    await t.waitForTurn(two, 'delegation-act-choose', ['completed']);
    expect((await t.call('transcript.page', { sessionId: one })).items).toHaveLength(0);

    const second = await route('Update the budget report notes');
    const asking = await act('act-cancel', second);
    const cancelId = asking.ok && asking.result.kind === 'awaiting_choice' ? asking.result.interactionId : '';
    await t.call('interaction.answer', { interactionId: cancelId, answer: { action: 'cancel' } });
    await waitFor(async () => (await t.call('session.get', { sessionId: WORKHUB_SESSION_ID })).activeTurn === null, {
      message: 'the form to settle',
    });
    expect((await t.call('workhub.delegations', {})).delegations).toHaveLength(1);
  });
});
