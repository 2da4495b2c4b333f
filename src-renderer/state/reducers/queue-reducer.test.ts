import { describe, expect, it } from 'vitest';
import { events, queued } from './record-fixtures';
import type { QueuesState } from './queue-reducer';
import { reduceQueueEvent, setQueue } from './queue-reducer';

describe('queue reducer', () => {
  const loaded = setQueue({}, 's1', [queued({ messageId: 'm1', createdAt: 1 })]);

  it('adds queued follow-ups in submission order', () => {
    const [event] = events({ kind: 'queue.changed', message: queued({ messageId: 'm0', createdAt: 0 }) });
    const next = reduceQueueEvent(loaded, event!);
    expect(next.s1?.map((message) => message.messageId)).toEqual(['m0', 'm1']);
  });

  it('drops a follow-up once it starts or is cancelled', () => {
    for (const state of ['started', 'cancelled'] as const) {
      const [event] = events({ kind: 'queue.changed', message: queued({ messageId: 'm1', state }) });
      expect(reduceQueueEvent(loaded, event!).s1).toEqual([]);
    }
  });

  it('ignores sessions whose queue is not loaded', () => {
    const empty: QueuesState = {};
    const [event] = events({ kind: 'queue.changed', message: queued({ messageId: 'm1', sessionId: 'other' }) });
    expect(reduceQueueEvent(empty, event!)).toBe(empty);
  });
});
