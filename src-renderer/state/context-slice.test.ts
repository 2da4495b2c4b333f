import { describe, expect, it } from 'vitest';
import type { ContextMeter } from '../../src-shared/context-model';
import type { ChangeEvent } from '../../src-shared/events';
import { reduceContextMeters } from './context-slice';

const meter = (used: number): ContextMeter => ({
  used,
  contextWindow: 32_000,
  outputReserve: 4_000,
  windowSource: 'default',
  breakdown: { system: 100, summary: 0, messages: used - 100, toolOutput: 0 },
  trimmed: false,
  modelId: 'm',
});
const changed = (seq: number, sessionId: string, used: number): ChangeEvent => ({
  seq,
  hostEpoch: 'e',
  kind: 'context.changed',
  sessionId,
  meter: meter(used),
});

describe('context meters', () => {
  it('keeps the newest meter of each session and drops a removed session’s', () => {
    const state = reduceContextMeters({}, [changed(1, 'a', 500), changed(2, 'b', 700), changed(3, 'a', 900)]);
    expect(state.a?.used).toBe(900);
    expect(state.b?.used).toBe(700);
    const after = reduceContextMeters(state, [{ seq: 4, hostEpoch: 'e', kind: 'session.removed', sessionId: 'a' }]);
    expect(after).toEqual({ b: state.b });
  });

  it('returns the same object when nothing concerns it (no re-render)', () => {
    const state = reduceContextMeters({}, [changed(1, 'a', 500)]);
    expect(reduceContextMeters(state, [{ seq: 2, hostEpoch: 'e', kind: 'session.removed', sessionId: 'zzz' }])).toBe(
      state,
    );
  });
});
