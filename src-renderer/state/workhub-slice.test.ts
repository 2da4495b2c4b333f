import { describe, expect, it, vi } from 'vitest';
import type { ActResult, Proposal } from '../../src-shared/workhub-model';
import { WORKHUB_SESSION_ID } from '../../src-shared/workhub-model';
import { session, turn } from './reducers/record-fixtures';
import { actionIdFor } from './reducers/workhub-reducer';
import { delegation, routed } from './reducers/workhub-fixtures';
import { setupStore } from './test-store';

const handOver: Proposal = { kind: 'delegate_existing', candidateRef: 'c1', text: 'Add the revenue chart' };
const stop: Proposal = { kind: 'stop_work', target: { candidateRef: 'c1' } };

function setup() {
  const harness = setupStore();
  harness.link.answer('workhub.delegations', () => ({ ok: true, result: { delegations: [] } }));
  return harness;
}

describe('the WorkHub slice', () => {
  it('routes the composer’s text with a fresh request id, and gives the text back when routing fails', async () => {
    const { store, link } = setup();
    link.answer('workhub.route', ({ requestId }) => ({ ok: true, result: routed(handOver, { requestId }) }));
    store.getState().setDraft(WORKHUB_SESSION_ID, 'Add the revenue chart to the quarterly report');
    await store.getState().sendToWorkhub();
    expect(link.callsOf('workhub.route')).toEqual([
      { requestId: expect.stringMatching(/^id-/), text: 'Add the revenue chart to the quarterly report' },
    ]);
    expect(store.getState().readDraft(WORKHUB_SESSION_ID)).toBe('');
    expect(store.getState().workhub.routing).toEqual([]);

    link.answer('workhub.route', () => ({
      ok: false,
      error: { code: 'provider_error', message: 'The router model did not answer.' },
    }));
    store.getState().setDraft(WORKHUB_SESSION_ID, 'stop it');
    await store.getState().sendToWorkhub();
    expect(store.getState().readDraft(WORKHUB_SESSION_ID)).toBe('stop it');
    expect(store.getState().toasts.map((toast) => toast.message)).toEqual(['The router model did not answer.']);
  });

  it('acts on Do it with the card’s action id and keeps the delegation it made', async () => {
    const { store, link } = setup();
    const route = routed(handOver);
    const actionId = actionIdFor(route.requestId, handOver, () => 'unused');
    const result: ActResult = {
      kind: 'delegated',
      delegation: delegation({ actionId }),
      queued: false,
      createdSession: false,
    };
    link.answer('workhub.act', () => ({ ok: true, result }));
    await store.getState().actOnProposal(route, handOver);
    expect(link.callsOf('workhub.act')).toEqual([
      { actionId, requestId: route.requestId, proposal: handOver, candidateSetId: 'set-1' },
    ]);
    expect(store.getState().workhub.cards[route.requestId]).toMatchObject({ phase: 'done', result });
    expect(store.getState().workhub.delegations.map((known) => known.actionId)).toEqual([actionId]);
  });

  it('stops only after the person confirms, and says so to the host', async () => {
    const { store, link } = setup();
    const stopped: ActResult = { kind: 'stopped', outcome: 'stop_delivered', delegation: null };
    link.answer('workhub.act', () => ({ ok: true, result: stopped }));
    const route = routed(stop);
    await store.getState().actOnProposal(route, stop);
    expect(link.callsOf('workhub.act')).toEqual([]);
    expect(store.getState().workhub.confirming).toEqual({
      requestId: route.requestId,
      proposal: stop,
      candidateSetId: 'set-1',
      targetTitle: 'Quarterly report',
    });

    store.getState().cancelConfirmation();
    expect(store.getState().workhub.confirming).toBeNull();
    expect(link.callsOf('workhub.act')).toEqual([]);

    await store.getState().actOnProposal(route, stop);
    await store.getState().confirmAction();
    expect(link.callsOf('workhub.act')).toEqual([
      {
        actionId: actionIdFor(route.requestId, stop, () => 'unused'),
        requestId: route.requestId,
        proposal: stop,
        candidateSetId: 'set-1',
        confirmation: 'user_confirmed',
      },
    ]);
    expect(store.getState().workhub.cards[route.requestId]?.phase).toBe('done');
  });

  it('retries a failed act with the same action id, and gives another act its own', async () => {
    const { store, link } = setup();
    link.answer('workhub.act', () => ({
      ok: false,
      error: { code: 'operation_unavailable', message: 'Reconnecting to the host…' },
    }));
    const route = routed(handOver);
    await store.getState().actOnProposal(route, handOver);
    expect(store.getState().workhub.cards[route.requestId]?.phase).toBe('failed');
    await store.getState().actOnProposal(route, { ...handOver, candidateRef: 'c2' });
    const handed: ActResult = {
      kind: 'delegated',
      delegation: delegation({ actionId: 'x' }),
      queued: true,
      createdSession: false,
    };
    link.answer('workhub.act', () => ({ ok: true, result: handed }));
    await store.getState().actOnProposal(route, handOver);
    const [first, other, retry] = link.callsOf('workhub.act').map((input) => (input as { actionId: string }).actionId);
    expect(retry).toBe(first);
    expect(other).not.toBe(first);
    expect(store.getState().workhub.cards[route.requestId]?.phase).toBe('done');
  });

  it('keeps a stale target on the card and routes the request again on request', async () => {
    const { store, link } = setup();
    link.answer('workhub.act', () => ({
      ok: false,
      error: { code: 'candidate_set_stale', message: 'That session was archived.' },
    }));
    link.answer('workhub.route', ({ requestId }) => ({ ok: true, result: routed(handOver, { requestId }) }));
    const route = routed(handOver);
    await store.getState().actOnProposal(route, handOver);
    expect(store.getState().workhub.cards[route.requestId]).toMatchObject({
      phase: 'failed',
      error: { code: 'candidate_set_stale' },
    });
    expect(store.getState().toasts).toEqual([]);
    await store.getState().routeAgain('Add the revenue chart');
    expect(link.callsOf('workhub.route')).toEqual([
      { requestId: expect.stringMatching(/^id-/), text: 'Add the revenue chart' },
    ]);
  });

  it('follows the live state of delegations from events, and re-reads them when a new one shows up', async () => {
    const { store, link, frames } = setup();
    link.answer('workhub.delegations', () => ({
      ok: true,
      result: { delegations: [delegation({ actionId: 'a1', targetSessionId: 's2', targetTurnId: 't1' })] },
    }));
    await store.getState().loadDelegations();
    link.push({ kind: 'turn.changed', turn: turn({ sessionId: 's2', turnId: 't1', status: 'waiting' }) });
    frames.flush();
    expect(store.getState().workhub.delegations[0]?.status).toBe('waiting');

    const reads = link.callsOf('workhub.delegations').length;
    link.push({
      kind: 'turn.changed',
      turn: turn({ sessionId: 's3', turnId: 't9', origin: 'delegation', status: 'running' }),
    });
    frames.flush();
    await vi.waitFor(() => expect(link.callsOf('workhub.delegations').length).toBe(reads + 1));
  });

  it('never lists the WorkHub’s own session in the sidebar', async () => {
    const { store, link, frames } = setup();
    await vi.waitFor(() => expect(store.getState().sessions.listLoaded).toBe(true));
    link.push({
      kind: 'session.changed',
      session: session({ sessionId: WORKHUB_SESSION_ID, title: 'WorkHub', updatedAt: 5000 }),
    });
    frames.flush();
    expect(store.getState().sessions.byId[WORKHUB_SESSION_ID]?.title).toBe('WorkHub');
    expect(store.getState().sessions.listIds).toEqual(['s1']);
  });

  it('cancels a card through the host, so the cancellation is recorded; a refused cancel reopens the card and says why', async () => {
    const { store, link } = setup();
    const route = routed(handOver);
    link.answer('workhub.cancel', () => ({ ok: true, result: { decision: { status: 'cancelled' as const } } }));
    await store.getState().cancelProposal(route.requestId);
    expect(link.callsOf('workhub.cancel')).toEqual([{ requestId: route.requestId }]);
    expect(store.getState().workhub.cards[route.requestId]?.phase).toBe('dismissed');

    link.answer('workhub.cancel', () => ({
      ok: false,
      error: { code: 'not_found', message: 'The WorkHub has no request with that id.' },
    }));
    await store.getState().cancelProposal('r-other');
    expect(store.getState().workhub.cards['r-other']?.phase).toBe('open');
    expect(store.getState().toasts.map((toast) => toast.message)).toEqual(['The WorkHub has no request with that id.']);
  });
});
