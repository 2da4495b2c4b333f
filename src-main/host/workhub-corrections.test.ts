import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Proposal } from '../../src-shared/workhub-model';
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

async function session(title: string): Promise<string> {
  return (await t.call('session.create', { title })).session.sessionId;
}
async function refIn(query: string, sessionId: string): Promise<{ candidateSetId: string; candidateRef: string }> {
  const set = await t.call('workhub.candidates', { query });
  const candidate = set.candidates.find((entry) => entry.sessionId === sessionId);
  if (candidate === undefined) throw new Error(`no candidate for ${sessionId}`);
  return { candidateSetId: set.candidateSetId, candidateRef: candidate.candidateRef };
}

describe('correcting a delegation', () => {
  it('moves a stopped delegation queued behind a busy manual turn to a fresh candidate, leaving the manual turn and a queued follow-up alone', async () => {
    const source = await session('Source notes');
    const destination = await session('Destination plans');
    await t.call('turn.start', { sessionId: source, turnId: 'manual', text: '/hold' });
    await waitFor(async () => (await t.call('session.get', { sessionId: source })).activeTurn?.turnId === 'manual', {
      message: 'the manual turn',
    });
    const manualRun = (await t.call('turn.query', { sessionId: source, turnId: 'manual' })).turn.latestRun.runId;

    const toSource = await refIn('Source notes', source);
    const handed = await t.invoke('workhub.act', {
      actionId: 'hand',
      proposal: { kind: 'delegate_existing', candidateRef: toSource.candidateRef, text: 'Tidy the notes' },
      candidateSetId: toSource.candidateSetId,
    });
    expect(handed).toMatchObject({ ok: true, result: { kind: 'delegated', queued: true } });
    const followUp = await t.call('turn.message.submit', {
      sessionId: source,
      messageId: 'follow-up',
      text: 'and then this',
      placement: 'next_turn',
    });
    expect(followUp).toMatchObject({ disposition: 'queued' });

    const stopped = await t.invoke('workhub.act', {
      actionId: 'stop',
      proposal: { kind: 'stop_work', target: { delegationActionId: 'hand' } },
      confirmation: 'user_confirmed',
    });
    expect(stopped).toMatchObject({ ok: true, result: { kind: 'stopped', outcome: 'stop_delivered' } });

    const fresh = await refIn('Destination plans', destination);
    const correction: Proposal = {
      kind: 'correct',
      replacesActionId: 'hand',
      target: { candidateRef: fresh.candidateRef },
    };
    const before = recordFingerprint(t.dataDir);
    // A correction first sent with a set that does not exist is refused as stale, and uses up nothing.
    const bogus = await t.invoke('workhub.act', {
      actionId: 'move',
      proposal: correction,
      candidateSetId: 'set-bogus',
      confirmation: 'user_confirmed',
    });
    expect(bogus.ok ? null : bogus.error.code).toBe('candidate_set_stale');
    expect(recordFingerprint(t.dataDir)).toBe(before);
    const unconfirmed = await t.invoke('workhub.act', {
      actionId: 'move',
      proposal: correction,
      candidateSetId: fresh.candidateSetId,
    });
    expect(unconfirmed.ok ? null : unconfirmed.error.code).toBe('invalid_input');
    expect(recordFingerprint(t.dataDir)).toBe(before);

    const moved = await t.invoke('workhub.act', {
      actionId: 'move',
      proposal: correction,
      candidateSetId: fresh.candidateSetId,
      confirmation: 'user_confirmed',
    });
    expect(moved).toMatchObject({
      ok: true,
      result: { kind: 'corrected', delegation: { targetSessionId: destination, text: 'Tidy the notes' } },
    });
    await t.waitForTurn(destination, 'delegation-move', ['completed']);

    const manual = (await t.call('turn.query', { sessionId: source, turnId: 'manual' })).turn;
    expect(manual.status).toBe('running');
    expect(manual.latestRun.runId).toBe(manualRun);
    const { messages } = await t.call('turn.message.query', { sessionId: source });
    expect(messages.find((message) => message.messageId === 'follow-up')?.state).toBe('queued');
    expect(messages.find((message) => message.messageId === 'delegation-hand')?.state).toBe('cancelled');
    await t.call('turn.stop', { sessionId: source });
  });

  it('no refusal of workhub.act consumes its action id: each leaves the record as it was, and the id then does something else', async () => {
    const report = await session('Quarterly report');
    await session('Garden plans');
    const toReport = await refIn('Quarterly report', report);
    const done = await t.invoke('workhub.act', {
      actionId: 'hand',
      proposal: { kind: 'delegate_existing', candidateRef: toReport.candidateRef, text: 'Write it' },
      candidateSetId: toReport.candidateSetId,
    });
    expect(done.ok).toBe(true);
    await t.waitForTurn(report, 'delegation-hand', ['completed']);
    const idle = await session('Idle notes');
    const toIdle = await refIn('Idle notes', idle);

    const refusals: Array<{
      code: string;
      proposal: Proposal;
      candidateSetId?: string;
      confirmation?: 'user_confirmed';
      requestId?: string;
    }> = [
      // Resuming work that completed.
      { code: 'operation_conflict', proposal: { kind: 'resume_work', target: { delegationActionId: 'hand' } } },
      // Resuming in a session the WorkHub handed nothing to.
      {
        code: 'not_found',
        proposal: { kind: 'resume_work', target: { candidateRef: toIdle.candidateRef } },
        candidateSetId: toIdle.candidateSetId,
      },
      // An action that handed nothing over.
      {
        code: 'not_found',
        proposal: { kind: 'stop_work', target: { delegationActionId: 'never-was' } },
        confirmation: 'user_confirmed',
      },
      {
        code: 'not_found',
        proposal: { kind: 'correct', replacesActionId: 'never-was', target: { candidateRef: toIdle.candidateRef } },
        candidateSetId: toIdle.candidateSetId,
        confirmation: 'user_confirmed',
      },
      // Stop and move without the person's confirmation.
      { code: 'invalid_input', proposal: { kind: 'stop_work', target: { delegationActionId: 'hand' } } },
      // A candidate that is not in the list, and a list that does not exist.
      {
        code: 'invalid_input',
        proposal: { kind: 'delegate_existing', candidateRef: 'c99', text: 'x' },
        candidateSetId: toIdle.candidateSetId,
      },
      {
        code: 'candidate_set_stale',
        proposal: { kind: 'delegate_existing', candidateRef: 'c1', text: 'x' },
        candidateSetId: 'set-nope',
      },
      { code: 'candidate_set_stale', proposal: { kind: 'choose', candidateRefs: ['c1', 'c2'], text: 'x' } },
      // A request the WorkHub never routed.
      {
        code: 'not_found',
        proposal: { kind: 'delegate_existing', candidateRef: toIdle.candidateRef, text: 'x' },
        candidateSetId: toIdle.candidateSetId,
        requestId: 'unknown-request',
      },
    ];
    for (const [index, refusal] of refusals.entries()) {
      const actionId = `refused-${index}`;
      const before = recordFingerprint(t.dataDir);
      const { code, ...input } = refusal;
      const answer = await t.invoke('workhub.act', { actionId, ...input });
      expect(answer.ok ? null : answer.error.code, `refusal ${index}`).toBe(code);
      expect(recordFingerprint(t.dataDir), `refusal ${index} left a record`).toBe(before);
      const recorded = await t.invoke('workhub.action.get', { actionId });
      expect(recorded.ok ? null : recorded.error.code).toBe('not_found');
      // The id is free: the next action under it is carried out.
      const answered = await t.invoke('workhub.act', {
        actionId,
        proposal: { kind: 'answer_here', text: `fine ${index}` },
      });
      expect(answered, `refusal ${index}`).toEqual({ ok: true, result: { kind: 'answered', text: `fine ${index}` } });
    }
  });
});
