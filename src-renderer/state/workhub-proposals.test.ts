import { describe, expect, it } from 'vitest';
import type { Proposal } from '../../src-shared/workhub-model';
import { item } from './reducers/record-fixtures';
import { candidate, delegation, routed } from './reducers/workhub-fixtures';
import { isProposalItem } from './workhub-items';
import {
  asNewWork,
  cardChoices,
  needsConfirmation,
  proposalTarget,
  retarget,
  routedRequestOf,
  titleForNewWork,
} from './workhub-proposals';

const handOver: Proposal = {
  kind: 'delegate_existing',
  candidateRef: 'c1',
  text: 'Add the revenue chart to the quarterly report',
};

describe('proposal items', () => {
  it('read the routed request a proposal item carries', () => {
    const route = routed(handOver);
    const proposal = item({ itemId: 'p1', position: 1, kind: 'proposal' as never, data: { ...route } });
    expect(isProposalItem(proposal)).toBe(true);
    expect(routedRequestOf(proposal)).toEqual(route);
  });

  it('refuse an item whose proposal is not well-formed, and drop candidates that are not', () => {
    const broken = item({
      itemId: 'p1',
      position: 1,
      kind: 'proposal' as never,
      data: { requestId: 'r', candidateSetId: 's', proposal: { kind: 'launch' } },
    });
    expect(routedRequestOf(broken)).toBeNull();
    const partial = item({
      itemId: 'p2',
      position: 2,
      kind: 'proposal' as never,
      data: {
        requestId: 'r',
        candidateSetId: 's',
        why: 'w',
        proposal: handOver,
        candidates: [candidate({ candidateRef: 'c1' }), { candidateRef: 'c2' }],
      },
    });
    expect(routedRequestOf(partial)?.candidates.map((known) => known.candidateRef)).toEqual(['c1']);
    expect(isProposalItem(item({ itemId: 'u', position: 0, kind: 'user_message' }))).toBe(false);
  });
});

describe('what a card offers', () => {
  it('hands a request elsewhere or to new work', () => {
    const choices = cardChoices(routed(handOver));
    expect(choices.doIt).toBe(true);
    expect(choices.others.map((known) => known.candidateRef)).toEqual(['c2']);
    expect(choices.startNew).toEqual({
      kind: 'create_new',
      title: 'Add the revenue chart to the quarterly report',
      workspace: null,
      text: handOver.text,
    });
    expect(retarget(handOver, 'c2')).toEqual({ ...handOver, candidateRef: 'c2' });
  });

  it('aims a stop, a resume or a correction at another candidate', () => {
    expect(retarget({ kind: 'stop_work', target: { candidateRef: 'c1' } }, 'c2')).toEqual({
      kind: 'stop_work',
      target: { candidateRef: 'c2' },
    });
    expect(
      retarget(
        { kind: 'correct', replacesActionId: 'a1', target: { createNew: { title: 'X', workspace: null } } },
        'c2',
      ),
    ).toEqual({
      kind: 'correct',
      replacesActionId: 'a1',
      target: { candidateRef: 'c2' },
    });
    expect(asNewWork({ kind: 'stop_work', target: { candidateRef: 'c1' } })).toBeNull();
  });

  it('offers nothing to do for an answer or a question back', () => {
    const choices = cardChoices(routed({ kind: 'answer_here', text: 'Nothing is running.' }));
    expect(choices).toEqual({ doIt: false, others: [], startNew: null });
  });

  it('asks for confirmation only before stopping or moving work', () => {
    expect(needsConfirmation({ kind: 'stop_work', target: { candidateRef: 'c1' } })).toBe(true);
    expect(needsConfirmation({ kind: 'correct', replacesActionId: 'a', target: { candidateRef: 'c1' } })).toBe(true);
    expect(needsConfirmation(handOver)).toBe(false);
    expect(needsConfirmation({ kind: 'resume_work', target: { candidateRef: 'c1' } })).toBe(false);
  });
});

describe('targets', () => {
  it('name a candidate, or a delegation this window knows', () => {
    const route = routed(handOver);
    expect(proposalTarget(handOver, route.candidates, [])).toMatchObject({
      title: 'Quarterly report',
      sessionId: 's-c1',
    });
    const stopDelegation: Proposal = { kind: 'stop_work', target: { delegationActionId: 'a1' } };
    expect(
      proposalTarget(
        stopDelegation,
        [],
        [delegation({ actionId: 'a1', targetSessionId: 's9', targetTitle: 'Deploy' })],
      ),
    ).toEqual({
      title: 'Deploy',
      sessionId: 's9',
      candidate: null,
    });
    expect(
      proposalTarget({ kind: 'create_new', title: 'T', workspace: null, text: 'x' }, route.candidates, []),
    ).toBeNull();
  });
});

describe('titles for new work', () => {
  it('drop a leading "new:", capitalise and cut long text at a word', () => {
    expect(titleForNewWork('new: plan a birthday party for Sam')).toBe('Plan a birthday party for Sam');
    expect(titleForNewWork('  ')).toBe('New work');
    const long = titleForNewWork(
      'write a very long and detailed plan for migrating every single service we run to the new cluster',
    );
    expect(long.length).toBeLessThanOrEqual(61);
    expect(long.endsWith('…')).toBe(true);
    expect(long).toMatch(/^Write a very long/);
  });
});
