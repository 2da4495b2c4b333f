import { describe, expect, it } from 'vitest';
import type { ChangeEvent } from '../../src-shared/events';
import { reduceAcpAgents } from './acp-slice';

const named = (seq: number, sessionId: string, version: string): ChangeEvent => ({
  seq,
  hostEpoch: 'e',
  kind: 'acp.agent.changed',
  sessionId,
  agent: { name: 'claude-agent-acp', title: 'Claude Agent', version },
});

describe('ACP agents’ names', () => {
  it('keeps the newest name of each session’s agent; a removed session’s goes', () => {
    const state = reduceAcpAgents({}, [named(1, 'a', '0.1.0'), named(2, 'b', '0.1.0'), named(3, 'a', '0.2.0')]);
    expect(state).toEqual({
      a: expect.objectContaining({ version: '0.2.0' }),
      b: expect.objectContaining({ version: '0.1.0' }),
    });
    expect(reduceAcpAgents(state, [{ seq: 4, hostEpoch: 'e', kind: 'session.removed', sessionId: 'a' }])).toEqual({
      b: state.b,
    });
  });

  it('returns the same object when nothing concerns it', () => {
    const state = reduceAcpAgents({}, [named(1, 'a', '0.1.0')]);
    expect(reduceAcpAgents(state, [{ seq: 2, hostEpoch: 'e', kind: 'session.removed', sessionId: 'zzz' }])).toBe(state);
  });
});
