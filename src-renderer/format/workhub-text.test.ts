import { describe, expect, it } from 'vitest';
import type { Proposal } from '../../src-shared/workhub-model';
import { candidate, delegation, routed } from '../state/reducers/workhub-fixtures';
import { proposalTarget } from '../state/workhub-proposals';
import {
  confirmationWords,
  describeActError,
  describeHandedOver,
  describeProposal,
  describeResult,
  targetStateNote,
} from './workhub-text';

const wordsFor = (proposal: Proposal) => {
  const route = routed(proposal);
  return describeProposal(route, proposalTarget(proposal, route.candidates, []));
};

describe('proposal words', () => {
  it('say what Cairn will do and why, in plain language', () => {
    expect(wordsFor({ kind: 'delegate_existing', candidateRef: 'c1', text: 'x' })).toEqual({
      headline: 'Hand this to “Quarterly report”',
      reason: 'title matches “report”',
    });
    expect(wordsFor({ kind: 'create_new', title: 'Plan a party', workspace: null, text: 'x' }).headline).toBe(
      'Start new work: “Plan a party”',
    );
    expect(wordsFor({ kind: 'stop_work', target: { candidateRef: 'c1' } }).headline).toBe(
      'Stop the work in “Quarterly report”',
    );
    expect(
      wordsFor({ kind: 'correct', replacesActionId: 'a', target: { createNew: { title: 'Taxes', workspace: null } } })
        .headline,
    ).toBe('Move your last request to new work: “Taxes”');
  });

  it('note when the target is busy', () => {
    const proposal: Proposal = { kind: 'delegate_existing', candidateRef: 'c1', text: 'x' };
    expect(targetStateNote(proposal, 'running')).toMatch(/waits behind its current turn/);
    expect(targetStateNote(proposal, 'idle')).toBeNull();
  });
});

describe('result words', () => {
  it('say where the work went and how', () => {
    const handed = delegation({ actionId: 'a1' });
    expect(describeResult({ kind: 'delegated', delegation: handed, queued: true, createdSession: false }, null)).toBe(
      'Handed to “Quarterly report” — queued behind its current turn',
    );
    expect(
      describeResult(
        {
          kind: 'delegated',
          delegation: { ...handed, targetTitle: 'Plan a party' },
          queued: false,
          createdSession: true,
        },
        null,
      ),
    ).toBe('Started new work in “Plan a party”');
  });

  it('say what a stop did', () => {
    expect(describeResult({ kind: 'stopped', outcome: 'stop_delivered', delegation: null }, 'Quarterly report')).toBe(
      'Stop delivered to “Quarterly report”',
    );
    expect(describeResult({ kind: 'stopped', outcome: 'not_owned', delegation: null }, 'Quarterly report')).toBe(
      'Left alone: the running work there isn’t from this delegation',
    );
    expect(
      describeResult(
        {
          kind: 'corrected',
          stop: 'stop_delivered',
          delegation: delegation({ actionId: 'a2', targetTitle: 'Garden plans' }),
        },
        null,
      ),
    ).toBe('Moved to “Garden plans” — the earlier work was stopped');
  });

  it('offer to route again when the target went stale', () => {
    expect(describeActError({ code: 'candidate_set_stale', message: 'stale' }, 'Quarterly report')).toEqual({
      message:
        '“Quarterly report” was archived or removed since Cairn looked. Route the request again to see where it fits now.',
      reroute: true,
    });
    expect(describeActError({ code: 'invalid_input', message: 'Confirm first.' }, null)).toEqual({
      message: 'Confirm first.',
      reroute: false,
    });
  });

  it('ask before stopping or moving work', () => {
    const words = confirmationWords(
      { kind: 'stop_work', target: { candidateRef: 'c1' } },
      candidate({ candidateRef: 'c1' }).title,
    );
    expect(words).toMatchObject({
      title: 'Stop the work in “Quarterly report”?',
      confirm: 'Stop',
      keep: 'Keep running',
    });
  });
});

describe('requests handed over earlier', () => {
  it('say where they went and how they are doing now', () => {
    expect(describeHandedOver(delegation({ actionId: 'a1', status: 'completed' }))).toBe(
      'Handed to “Quarterly report” — done',
    );
    expect(describeHandedOver(delegation({ actionId: 'a1', status: 'removed', targetTitle: null }))).toBe(
      'Handed to a session — that session has since been deleted',
    );
  });

  it('name the sessions to choose between', () => {
    expect(wordsFor({ kind: 'choose', candidateRefs: ['c1', 'c2'], text: 'x' }).headline).toBe(
      'Ask you where this goes: “Quarterly report” or “Garden plans”',
    );
  });
});
