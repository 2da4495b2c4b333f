import { describe, expect, it } from 'vitest';
import { waitingSessionLabel } from './agent-selectors';
import { agentNode } from './reducers/agent-fixtures';
import { session } from './reducers/record-fixtures';

describe('waiting for you, for a child agent', () => {
  const sessions = {
    r: session({ sessionId: 'r', title: 'Plan the release' }),
    c1: session({ sessionId: 'c1', title: 'Worker: ask first' }),
  };
  const links = {
    c1: agentNode({ childSessionId: 'c1' }),
    g1: agentNode({ childSessionId: 'g1', parentSessionId: 'c1', depth: 2, agentName: 'Explore' }),
  };

  it('is labelled with its parent session’s title and the agent', () => {
    expect(waitingSessionLabel('c1', sessions, links)).toBe('Plan the release › Worker agent');
    expect(waitingSessionLabel('g1', sessions, links)).toBe('Worker: ask first › Explore agent');
  });

  it('a session no agent started keeps its own title', () => {
    expect(waitingSessionLabel('r', sessions, links)).toBe('Plan the release');
    expect(waitingSessionLabel('nowhere', sessions, links)).toBe('A session');
  });
});
