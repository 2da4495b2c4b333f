import { describe, expect, it } from 'vitest';
import { applyChangeEvents, coalesceDeltas } from './apply-events';
import { EMPTY_INTERACTIONS } from './interactions-reducer';
import { events, goal, interaction, item, queued, session } from './record-fixtures';
import { setQueue } from './queue-reducer';
import { applySessionList, EMPTY_SESSIONS } from './sessions-reducer';
import { EMPTY_SHELL } from './shell-reducer';
import { applySnapshotPage } from './transcript-reducer';

describe('applying a batch of host events', () => {
  const start = {
    sessions: applySessionList(
      EMPTY_SESSIONS,
      EMPTY_SESSIONS.view,
      { sessions: [session({ sessionId: 's1' })], nextCursor: null },
      false,
    ),
    transcripts: {
      s1: applySnapshotPage(undefined, 's1', {
        items: [item({ itemId: 'a', position: 0, text: '', state: 'streaming' })],
        turns: [],
        nextBefore: null,
      }),
    },
    queues: setQueue({}, 's1', []),
    interactions: EMPTY_INTERACTIONS,
    goals: {},
    shell: EMPTY_SHELL,
    runProgress: {},
  };

  it('merges runs of deltas to one item into a single update', () => {
    const batch = events(
      { kind: 'transcript.delta', sessionId: 's1', itemId: 'a', text: 'a', length: 1 },
      { kind: 'transcript.delta', sessionId: 's1', itemId: 'a', text: 'b', length: 2 },
      { kind: 'transcript.delta', sessionId: 's1', itemId: 'b', text: 'x', length: 1 },
      { kind: 'transcript.delta', sessionId: 's1', itemId: 'a', text: 'c', length: 3 },
    );
    const merged = coalesceDeltas(batch);
    expect(merged).toHaveLength(3);
    expect(merged[0]).toMatchObject({ itemId: 'a', text: 'ab', length: 2 });
  });

  it('updates every part of the record that an event touches, in order', () => {
    const next = applyChangeEvents(
      start,
      events(
        { kind: 'transcript.delta', sessionId: 's1', itemId: 'a', text: 'Hi', length: 2 },
        { kind: 'transcript.delta', sessionId: 's1', itemId: 'a', text: '!', length: 3 },
        { kind: 'session.changed', session: session({ sessionId: 's1', activity: 'running', revision: 2 }) },
        { kind: 'queue.changed', message: queued({ messageId: 'm1' }) },
        { kind: 'interaction.changed', interaction: interaction({ interactionId: 'i1' }) },
        { kind: 'goal.changed', goal: goal({ goalId: 'g1' }) },
      ),
    );
    expect(next.interactions.pendingIds).toEqual(['i1']);
    expect(next.goals.s1?.goalId).toBe('g1');
    expect(next.transcripts.s1?.itemsById.a?.text).toBe('Hi!');
    expect(next.transcripts.s1?.stale).toBe(false);
    expect(next.sessions.byId.s1?.activity).toBe('running');
    expect(next.queues.s1).toHaveLength(1);
  });

  it('returns the same state when nothing applies', () => {
    expect(applyChangeEvents(start, events({ kind: 'session.removed', sessionId: 'nobody' }))).toBe(start);
  });
});
