import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DecisionItemData, Proposal, RouteResult } from '../../src-shared/workhub-model';
import { WORKHUB_SESSION_ID } from '../../src-shared/workhub-model';
import { startTestHost, type TestHost } from '../testing/host-fixture';
import { waitFor } from '../testing/wait-for';

let t: TestHost;
beforeEach(async () => {
  t = await startTestHost();
});
afterEach(async () => {
  await t.close();
});

async function session(title: string): Promise<string> {
  return (await t.call('session.create', { title })).session.sessionId;
}
function act(
  host: TestHost,
  requestId: string,
  actionId: string,
  routed: RouteResult,
  proposal: Proposal = routed.proposal,
) {
  return host.invoke('workhub.act', { actionId, requestId, proposal, candidateSetId: routed.candidateSetId });
}
const refOf = (routed: RouteResult, sessionId: string) =>
  routed.candidates.find((candidate) => candidate.sessionId === sessionId)?.candidateRef ?? '';

/** The decisions the WorkHub's transcript records, by request id. */
async function decisions(host: TestHost): Promise<Record<string, DecisionItemData['workhubDecision']>> {
  const { items } = await host.call('transcript.page', { sessionId: WORKHUB_SESSION_ID });
  const found: Record<string, DecisionItemData['workhubDecision']> = {};
  for (const item of items) {
    const data = item.data as Partial<DecisionItemData> | null;
    if (item.kind === 'notice' && data?.workhubDecision !== undefined && data.requestId !== undefined)
      found[data.requestId] = data.workhubDecision;
  }
  return found;
}

describe('what became of each WorkHub proposal', () => {
  it('is recorded in the WorkHub transcript; a decided request answers its recorded result to any act, also after a restart', async () => {
    const report = await session('Quarterly report');
    const garden = await session('Garden plans');
    const routed = await t.call('workhub.route', {
      requestId: 'r1',
      text: 'Add the revenue chart to the quarterly report',
    });
    const done = await act(t, 'r1', 'r1.a', routed);
    expect(done).toMatchObject({ ok: true, result: { kind: 'delegated', delegation: { targetSessionId: report } } });
    expect((await decisions(t)).r1).toMatchObject({ status: 'done', actionId: 'r1.a', result: { kind: 'delegated' } });
    expect(await t.call('workhub.action.get', { actionId: 'r1.a' })).toMatchObject({
      action: { actionId: 'r1.a', requestId: 'r1', proposal: routed.proposal, outcome: done },
    });

    // A second act on the decided card (another window's "Pick another") hands nothing over again.
    const other: Proposal = {
      kind: 'delegate_existing',
      candidateRef: refOf(routed, garden),
      text: 'Add the revenue chart to the quarterly report',
    };
    expect(await act(t, 'r1', 'r1.b', routed, other)).toEqual(done);
    await t.host.close();
    const reopened = await startTestHost({ dataDir: t.dataDir });
    try {
      expect(await act(reopened, 'r1', 'r1.c', routed, other)).toEqual(done);
      expect(
        (await reopened.call('workhub.delegations', {})).delegations.map((delegation) => delegation.targetSessionId),
      ).toEqual([report]);
      expect((await reopened.call('transcript.page', { sessionId: garden })).items).toHaveLength(0);
      expect(Object.keys(await decisions(reopened))).toEqual(['r1']);
      const missing = await reopened.invoke('workhub.action.get', { actionId: 'r1.b' });
      expect(missing.ok ? null : missing.error.code).toBe('not_found');
    } finally {
      await reopened.close();
    }
  });

  it('a cancelled proposal does nothing when acted on later, and cancelling again answers the same', async () => {
    await session('Quarterly report');
    const routed = await t.call('workhub.route', {
      requestId: 'r1',
      text: 'Add the revenue chart to the quarterly report',
    });
    expect(await t.call('workhub.cancel', { requestId: 'r1' })).toEqual({ decision: { status: 'cancelled' } });
    const late = await act(t, 'r1', 'r1.a', routed);
    expect(late.ok ? null : late.error.code).toBe('operation_conflict');
    expect((await t.call('workhub.delegations', {})).delegations).toHaveLength(0);
    expect(await t.call('workhub.cancel', { requestId: 'r1' })).toEqual({ decision: { status: 'cancelled' } });
    expect(await decisions(t)).toEqual({ r1: { status: 'cancelled' } });
    const unknown = await t.invoke('workhub.cancel', { requestId: 'nope' });
    expect(unknown.ok ? null : unknown.error.code).toBe('not_found');
  });

  it('a newer request sets an older undecided proposal aside: acting on it does nothing', async () => {
    const report = await session('Quarterly report');
    const older = await t.call('workhub.route', {
      requestId: 'r1',
      text: 'Work on the quarterly report: /stream 300 20',
    });
    await act(t, 'r1', 'r1.a', older);
    await waitFor(async () => (await t.call('session.get', { sessionId: report })).activeTurn !== null, {
      message: 'the delegated turn',
    });
    await t.call('turn.stop', { sessionId: report });
    const resume = await t.call('workhub.route', { requestId: 'r2', text: 'resume the quarterly report' });
    expect(resume.proposal.kind).toBe('resume_work');
    await t.call('workhub.route', { requestId: 'r3', text: 'Something else entirely for new work' });
    const stale = await act(t, 'r2', 'r2.a', resume);
    expect(stale.ok ? null : stale.error).toMatchObject({
      code: 'candidate_set_stale',
      message: expect.stringContaining('newer request'),
    });
    expect((await t.call('turn.query', { sessionId: report, turnId: 'delegation-r1.a' })).turn.runs).toHaveLength(1);
    expect((await decisions(t)).r2).toBeUndefined();
  });

  it('a refusal met while acting decides nothing: the request stays open and the same id may act once the cause is gone', async () => {
    const report = await session('Quarterly report');
    const routed = await t.call('workhub.route', { requestId: 'r1', text: 'Add a chart to the quarterly report' });
    await t.call('session.archive', { sessionId: report, archived: true });
    const refused = await act(t, 'r1', 'r1.a', routed);
    expect(refused.ok ? null : refused.error.code).toBe('candidate_set_stale');
    expect((await decisions(t)).r1).toBeUndefined();
    // A replay of the same refused action meets the same refusal.
    expect(await act(t, 'r1', 'r1.a', routed)).toEqual(refused);
    await t.call('session.archive', { sessionId: report, archived: false });
    const done = await act(t, 'r1', 'r1.a', routed);
    expect(done).toMatchObject({ ok: true, result: { kind: 'delegated', delegation: { targetSessionId: report } } });
    expect((await decisions(t)).r1).toMatchObject({ status: 'done', actionId: 'r1.a' });
  });

  it('a choice form answered: replaying the choose act returns what the pick did; a closed form cancels the request', async () => {
    await session('Budget report 2025');
    const two = await session('Budget report 2026');
    const routed = await t.call('workhub.route', { requestId: 'r1', text: 'Update the budget report totals' });
    expect(routed.proposal.kind).toBe('choose');
    const asked = await act(t, 'r1', 'r1.a', routed);
    const interactionId = asked.ok && asked.result.kind === 'awaiting_choice' ? asked.result.interactionId : '';
    await t.call('interaction.answer', {
      interactionId,
      answer: { action: 'accept', values: { target: refOf(routed, two) } },
    });
    await waitFor(async () => (await decisions(t)).r1?.status === 'done', { message: 'the choice to be carried out' });
    const replay = await act(t, 'r1', 'r1.a', routed);
    expect(replay).toMatchObject({ ok: true, result: { kind: 'delegated', delegation: { targetSessionId: two } } });
    expect((await t.call('workhub.action.get', { actionId: 'r1.a' })).action).toMatchObject({
      proposal: routed.proposal,
      outcome: replay,
    });
    expect((await t.call('workhub.delegations', {})).delegations).toHaveLength(1);

    const second = await t.call('workhub.route', { requestId: 'r2', text: 'Update the budget report notes' });
    const asking = await act(t, 'r2', 'r2.a', second);
    const closeId = asking.ok && asking.result.kind === 'awaiting_choice' ? asking.result.interactionId : '';
    await t.call('interaction.answer', { interactionId: closeId, answer: { action: 'cancel' } });
    await waitFor(async () => (await decisions(t)).r2?.status === 'cancelled', {
      message: 'the closed form to cancel the request',
    });
    // The replay names the form it put up (now closed), and puts up no second one.
    expect(await act(t, 'r2', 'r2.a', second)).toEqual({
      ok: true,
      result: { kind: 'awaiting_choice', interactionId: closeId },
    });
    expect((await t.call('interaction.list', { sessionId: WORKHUB_SESSION_ID })).interactions).toHaveLength(2);
  });

  it('a request cancelled while its choice form is open hands nothing over when the form is answered', async () => {
    await session('Budget report 2025');
    const two = await session('Budget report 2026');
    const routed = await t.call('workhub.route', { requestId: 'r1', text: 'Update the budget report totals' });
    const asked = await act(t, 'r1', 'r1.a', routed);
    const interactionId = asked.ok && asked.result.kind === 'awaiting_choice' ? asked.result.interactionId : '';
    await t.call('workhub.cancel', { requestId: 'r1' });
    await t.call('interaction.answer', {
      interactionId,
      answer: { action: 'accept', values: { target: refOf(routed, two) } },
    });
    await waitFor(async () => (await t.call('session.get', { sessionId: WORKHUB_SESSION_ID })).activeTurn === null, {
      message: 'the form’s answer to settle',
    });
    expect((await t.call('workhub.delegations', {})).delegations).toHaveLength(0);
    expect((await t.call('transcript.page', { sessionId: two })).items).toHaveLength(0);
    expect(await decisions(t)).toEqual({ r1: { status: 'cancelled' } });
  });
});
