import { describe, expect, it } from 'vitest';
import type { TranscriptItem } from '../../src-shared/model';
import type { ActResult, ProposalDecision } from '../../src-shared/workhub-model';
import { item, session } from './reducers/record-fixtures';
import { OPEN_CARD } from './reducers/workhub-reducer';
import { delegation } from './reducers/workhub-fixtures';
import { cardView, decisionOf, hasRunningWork, liveCandidateState, type CardFacts } from './workhub-card-view';
import { isDecisionItem } from './workhub-items';

const handOver = { kind: 'delegate_existing', candidateRef: 'c1', text: 'Add the chart' } as const;
const result: ActResult = {
  kind: 'delegated',
  delegation: delegation({ actionId: 'r1.a' }),
  queued: false,
  createdSession: false,
};
const facts = (overrides: Partial<CardFacts>): CardFacts => ({
  decision: null,
  choiceId: null,
  handed: null,
  card: OPEN_CARD,
  newest: true,
  ...overrides,
});

function notice(data: Record<string, unknown> | null): TranscriptItem {
  return item({ itemId: 'i1', position: 3, turnId: 'r1', kind: 'notice', text: 'Handed to “Quarterly report”.', data });
}

describe('a WorkHub card’s view', () => {
  it('shows what the record decided, whatever this window did', () => {
    const done: ProposalDecision = { status: 'done', actionId: 'r1.a', proposal: handOver, result };
    expect(cardView(facts({ decision: done, newest: false }))).toEqual({ kind: 'done', result });
    const failed: ProposalDecision = {
      status: 'failed',
      actionId: 'r1.a',
      proposal: handOver,
      error: { code: 'candidate_set_stale', message: 'Archived.' },
    };
    expect(cardView(facts({ decision: failed }))).toEqual({ kind: 'failed', error: failed.error, recorded: true });
    expect(cardView(facts({ decision: { status: 'cancelled' }, card: { ...OPEN_CARD, phase: 'acting' } }))).toEqual({
      kind: 'cancelled',
    });
  });

  it('offers actions only on the newest undecided proposal; an older one is set aside', () => {
    expect(cardView(facts({}))).toEqual({ kind: 'open' });
    expect(cardView(facts({ newest: false }))).toEqual({ kind: 'superseded' });
    // A hand-off the record shows (from before decisions were recorded) still counts as done.
    expect(cardView(facts({ newest: false, handed: delegation({ actionId: 'r1.a' }) }))).toEqual({
      kind: 'done',
      result: null,
    });
    expect(
      cardView(
        facts({ card: { ...OPEN_CARD, phase: 'failed', error: { code: 'internal_failure', message: 'Oops.' } } }),
      ),
    ).toMatchObject({ kind: 'failed', recorded: false });
  });

  it('reads a decision notice, and nothing else, as a decision', () => {
    const done = { status: 'done', actionId: 'r1.a', proposal: handOver, result };
    expect(decisionOf(notice({ requestId: 'r1', workhubDecision: done }))).toEqual({ requestId: 'r1', decision: done });
    expect(isDecisionItem(notice({ requestId: 'r1', workhubDecision: done }))).toBe(true);
    expect(
      decisionOf(
        notice({
          requestId: 'r1',
          workhubDecision: { status: 'done', actionId: 'r1.a', proposal: { kind: 'bogus' }, result },
        }),
      ),
    ).toBeNull();
    expect(decisionOf(notice(null))).toBeNull();
    expect(isDecisionItem(notice(null))).toBe(false);
  });

  it('follows a session’s live state, never the routed snapshot', () => {
    expect(liveCandidateState(session({ sessionId: 's1', activity: 'running' }), null)).toBe('running');
    expect(liveCandidateState(session({ sessionId: 's1', activity: 'completed' }), null)).toBe('idle');
    expect(liveCandidateState(session({ sessionId: 's1', activity: 'waiting' }), null)).toBe('waiting_for_user');
    expect(liveCandidateState(undefined, null)).toBeNull();
    expect(hasRunningWork('idle')).toBe(false);
    expect(hasRunningWork('running')).toBe(true);
  });
});
