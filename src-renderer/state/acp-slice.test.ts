import { describe, expect, it } from 'vitest';
import type { ChangeEvent } from '../../src-shared/events';
import { reduceAcpAgents, reduceAcpOffers } from './acp-slice';

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

describe('what ACP agents offer', () => {
  const offered = (seq: number, sessionId: string, name: string): ChangeEvent => ({
    seq,
    hostEpoch: 'e',
    kind: 'acp.offers.changed',
    sessionId,
    offers: { commands: [{ name, description: name, hint: null }], selectors: [], chosen: {} },
  });

  it('keeps the newest offers of each session; a removed session’s go; nothing else changes them', () => {
    const state = reduceAcpOffers({}, [offered(1, 'a', 'review'), offered(2, 'b', 'init'), offered(3, 'a', 'compact')]);
    expect(state.a?.commands.map((command) => command.name)).toEqual(['compact']);
    expect(state.b?.commands.map((command) => command.name)).toEqual(['init']);
    const gone = reduceAcpOffers(state, [{ seq: 4, hostEpoch: 'e', kind: 'session.removed', sessionId: 'a' }]);
    expect(gone).toEqual({ b: state.b });
    expect(reduceAcpOffers(gone, [named(5, 'b', '0.1.0')])).toBe(gone);
  });
});
