import { describe, expect, it } from 'vitest';
import {
  liveTally,
  childAgentCount,
  childStatusDetail,
  childStatusFrom,
  childStatusLabel,
  isLiveChildStatus,
  stopLabel,
} from './agent-status';

describe('child agent status in words', () => {
  it('labels every status, waiting as waiting for you', () => {
    expect(childStatusLabel('waiting')).toBe('waiting for you');
    expect(childStatusLabel('cancelled')).toBe('cancelled');
    expect(childStatusLabel('starting')).toBe('starting');
  });

  it('prefers the tree node’s turn status and falls back to the session’s activity', () => {
    expect(childStatusFrom('completed', 'running')).toBe('completed');
    expect(childStatusFrom(null, 'running')).toBe('running');
    expect(childStatusFrom(undefined, 'idle')).toBe('starting');
    expect(childStatusFrom(undefined, undefined)).toBeNull();
  });

  it('counts starting, running and waiting children as live, and an unknown one not', () => {
    expect(isLiveChildStatus(null)).toBe(false);
    expect(
      ['starting', 'running', 'waiting', 'completed', 'failed', 'cancelled', 'interrupted'].filter((status) =>
        isLiveChildStatus(status as never),
      ),
    ).toEqual(['starting', 'running', 'waiting']);
  });

  it('says why a child ended', () => {
    expect(childStatusDetail('cancelled', 'parent_stopped')).toBe('cancelled — the agent that started it was stopped');
    expect(childStatusDetail('running', null)).toBe('running');
  });

  it('tallies what a root’s children are doing', () => {
    expect(liveTally(['running', 'starting', 'waiting', 'completed', null])).toBe('2 working · 1 waiting for you');
    expect(liveTally(['waiting'])).toBe('1 waiting for you');
    expect(liveTally(['cancelled', null])).toBe('');
  });

  it('says how many children Stop also stops', () => {
    expect(stopLabel(0)).toBe('Stop');
    expect(stopLabel(1)).toBe('Stop — also stops 1 child agent');
    expect(stopLabel(2)).toBe('Stop — also stops 2 child agents');
    expect(childAgentCount(3)).toBe('3 child agents');
  });
});
