import { describe, expect, it } from 'vitest';
import type { ChangeEvent, ChangeEventBody } from '../../../src-shared/events';
import type { Proposal } from '../../../src-shared/workhub-model';
import { session, turn } from './record-fixtures';
import { delegation } from './workhub-fixtures';
import {
  actionIdFor,
  applyDelegationEvents,
  beginAttempt,
  cardOf,
  delegationsNeedingAttention,
  dismissCard,
  EMPTY_WORKHUB,
  eventsNameUnknownDelegation,
  isActionOf,
  setPicking,
  settleAttempt,
} from './workhub-reducer';

const handOver: Proposal = { kind: 'delegate_existing', candidateRef: 'c1', text: 'Add the chart' };
const stop: Proposal = { kind: 'stop_work', target: { candidateRef: 'c1' } };
let attempts = 0;
const attempt = (proposal: Proposal, confirmed = false) => ({
  actionId: `act-${++attempts}`,
  proposal,
  candidateSetId: 'set-1',
  confirmed,
});
const event = (body: ChangeEventBody, seq = 1): ChangeEvent => ({ ...body, seq, hostEpoch: 'e1' }) as ChangeEvent;

describe('proposal cards', () => {
  it('start open, act once, and keep the result', () => {
    const begun = beginAttempt(EMPTY_WORKHUB, 'r1', attempt(handOver))!;
    const { actionId } = begun.attempt;
    expect(cardOf(begun.state, 'r1').phase).toBe('acting');
    // A second click while the first act is out does nothing.
    expect(beginAttempt(begun.state, 'r1', attempt(handOver))).toBeNull();

    const result = {
      kind: 'delegated' as const,
      delegation: delegation({ actionId }),
      queued: true,
      createdSession: false,
    };
    const done = settleAttempt(begun.state, 'r1', actionId, { ok: true, result });
    expect(cardOf(done, 'r1')).toMatchObject({ phase: 'done', result });
    expect(done.delegations.map((known) => known.actionId)).toEqual([actionId]);
    expect(beginAttempt(done, 'r1', attempt(handOver))).toBeNull();
  });

  it('keeps a failed card open to act again', () => {
    const first = beginAttempt(EMPTY_WORKHUB, 'r1', attempt(handOver))!;
    const failed = settleAttempt(first.state, 'r1', first.attempt.actionId, {
      ok: false,
      error: { code: 'operation_unavailable', message: 'The host is not reachable.' },
    });
    expect(cardOf(failed, 'r1')).toMatchObject({ phase: 'failed', error: { code: 'operation_unavailable' } });
    expect(cardOf(beginAttempt(failed, 'r1', attempt(handOver))!.state, 'r1').phase).toBe('acting');
  });

  it('ignores an answer for an attempt the card no longer holds', () => {
    const begun = beginAttempt(EMPTY_WORKHUB, 'r1', attempt(stop, true))!;
    const stale = settleAttempt(begun.state, 'r1', 'act-other', {
      ok: true,
      result: { kind: 'stopped', outcome: 'stop_delivered', delegation: null },
    });
    expect(stale).toBe(begun.state);
  });

  it('folds away on Cancel and opens again, but never once it acted', () => {
    const dismissed = dismissCard(EMPTY_WORKHUB, 'r1', true);
    expect(cardOf(dismissed, 'r1').phase).toBe('dismissed');
    expect(cardOf(dismissCard(dismissed, 'r1', false), 'r1').phase).toBe('open');
    const begun = beginAttempt(EMPTY_WORKHUB, 'r1', attempt(handOver))!;
    expect(dismissCard(begun.state, 'r1', true)).toBe(begun.state);
  });

  it('opens the candidate list to pick another, and closes it when an act starts', () => {
    const picking = setPicking(EMPTY_WORKHUB, 'r1', true);
    expect(cardOf(picking, 'r1').picking).toBe(true);
    const begun = beginAttempt(picking, 'r1', attempt({ ...handOver, candidateRef: 'c2' }))!;
    expect(cardOf(begun.state, 'r1').picking).toBe(false);
  });

  it('name an act by its request and its content, so the same act always has the same id', () => {
    const fresh = () => 'fresh-id';
    const reordered: Proposal = { target: { candidateRef: 'c1' }, kind: 'stop_work' };
    expect(actionIdFor('req-1', stop, fresh)).toBe(actionIdFor('req-1', reordered, fresh));
    expect(actionIdFor('req-1', stop, fresh)).toMatch(/^req-1\.[0-9a-f]{8}$/);
    expect(actionIdFor('req-1', { kind: 'stop_work', target: { candidateRef: 'c2' } }, fresh)).not.toBe(
      actionIdFor('req-1', stop, fresh),
    );
    expect(actionIdFor('req-2', stop, fresh)).not.toBe(actionIdFor('req-1', stop, fresh));
    expect(isActionOf(actionIdFor('req-1', stop, fresh), 'req-1')).toBe(true);
    expect(isActionOf(actionIdFor('req-1', stop, fresh), 'req-10')).toBe(false);
    expect(actionIdFor('r'.repeat(125), stop, fresh)).toBe('fresh-id');
  });
});

describe('delegations', () => {
  const known = [
    delegation({ actionId: 'a2', createdAt: 2000, targetTurnId: 't2' }),
    delegation({ actionId: 'a1', targetTurnId: 't1' }),
  ];

  it('follow their target turn, title and removal', () => {
    const next = applyDelegationEvents(known, [
      event({ kind: 'turn.changed', turn: turn({ sessionId: 's-c1', turnId: 't2', status: 'cancelled' }) }),
      event({ kind: 'session.changed', session: session({ sessionId: 's-c1', title: 'Q3 report' }) }, 2),
    ]);
    expect(next.map((item) => [item.status, item.targetTitle])).toEqual([
      ['cancelled', 'Q3 report'],
      ['running', 'Q3 report'],
    ]);
    const removed = applyDelegationEvents(next, [event({ kind: 'session.removed', sessionId: 's-c1' })]);
    expect(removed.every((item) => item.status === 'removed')).toBe(true);
  });

  it('stay the same array when events do not touch them', () => {
    expect(
      applyDelegationEvents(known, [event({ kind: 'turn.changed', turn: turn({ sessionId: 'other', turnId: 't9' }) })]),
    ).toBe(known);
  });

  it('notice a delegated turn they do not know yet', () => {
    const fresh = event({
      kind: 'turn.changed',
      turn: turn({ sessionId: 's-c1', turnId: 't3', origin: 'delegation', status: 'running' }),
    });
    expect(eventsNameUnknownDelegation(known, [fresh])).toBe(true);
    const knownTurn = event({
      kind: 'turn.changed',
      turn: turn({ sessionId: 's-c1', turnId: 't2', origin: 'delegation', status: 'running' }),
    });
    expect(eventsNameUnknownDelegation(known, [knownTurn])).toBe(false);
  });

  it('need attention when the newest one in a session waits or failed and the session has not moved on', () => {
    const list = [
      delegation({ actionId: 'a3', targetSessionId: 's1', status: 'waiting', createdAt: 3000 }),
      delegation({ actionId: 'a2', targetSessionId: 's2', status: 'failed', createdAt: 2000 }),
      delegation({ actionId: 'a1', targetSessionId: 's1', status: 'failed', createdAt: 1000 }),
    ];
    const sessions = {
      s1: session({ sessionId: 's1', activity: 'waiting' }),
      s2: session({ sessionId: 's2', activity: 'completed' }),
    };
    expect(delegationsNeedingAttention(list, sessions).map((item) => item.actionId)).toEqual(['a3']);
  });
});
