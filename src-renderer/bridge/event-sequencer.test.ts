import { describe, expect, it } from 'vitest';
import { EventSequencer } from './event-sequencer';

describe('EventSequencer', () => {
  it('takes the first event as the baseline and accepts the next seq', () => {
    const sequencer = new EventSequencer();
    expect(sequencer.check({ seq: 41, hostEpoch: 'a' })).toBe('next');
    expect(sequencer.check({ seq: 42, hostEpoch: 'a' })).toBe('next');
  });

  it('reports a gap when seq jumps, then carries on from the new position', () => {
    const sequencer = new EventSequencer();
    sequencer.check({ seq: 1, hostEpoch: 'a' });
    expect(sequencer.check({ seq: 3, hostEpoch: 'a' })).toBe('gap');
    expect(sequencer.check({ seq: 4, hostEpoch: 'a' })).toBe('next');
  });

  it('drops replayed events', () => {
    const sequencer = new EventSequencer();
    sequencer.check({ seq: 5, hostEpoch: 'a' });
    expect(sequencer.check({ seq: 5, hostEpoch: 'a' })).toBe('replayed');
    expect(sequencer.check({ seq: 2, hostEpoch: 'a' })).toBe('replayed');
  });

  it('reports a new host epoch', () => {
    const sequencer = new EventSequencer();
    sequencer.check({ seq: 9, hostEpoch: 'a' });
    expect(sequencer.check({ seq: 1, hostEpoch: 'b' })).toBe('new_epoch');
    expect(sequencer.check({ seq: 2, hostEpoch: 'b' })).toBe('next');
  });

  it('starts over after a reset (a reconnect is resynced anyway)', () => {
    const sequencer = new EventSequencer();
    sequencer.check({ seq: 9, hostEpoch: 'a' });
    sequencer.reset();
    expect(sequencer.check({ seq: 1, hostEpoch: 'b' })).toBe('next');
  });
});
