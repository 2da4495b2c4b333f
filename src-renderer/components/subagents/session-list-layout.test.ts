import { describe, expect, it } from 'vitest';
import { agentNode } from '../../state/reducers/agent-fixtures';
import { listTabStop, topLevelIds } from './session-list-layout';

const links = {
  c1: agentNode({ childSessionId: 'c1' }),
  g1: agentNode({ childSessionId: 'g1', parentSessionId: 'c1', depth: 2 }),
  x1: agentNode({ childSessionId: 'x1', rootSessionId: 'gone', parentSessionId: 'gone' }),
};

describe('the session list with child agents', () => {
  it('nests children under a listed root and keeps one whose root is not listed', () => {
    expect(topLevelIds(['c1', 'r', 'g1', 'x1', 's'], links)).toEqual(['r', 'x1', 's']);
    const plain = ['r', 's'];
    expect(topLevelIds(plain, links)).toBe(plain);
  });

  it('puts the Tab stop on the open child while its root is open, else on its root', () => {
    const top = ['s', 'r'];
    expect(listTabStop(top, 'g1', links, { r: true })).toBe('g1');
    expect(listTabStop(top, 'g1', links, {})).toBe('r');
    expect(listTabStop(top, 'r', links, {})).toBe('r');
    expect(listTabStop(top, null, links, {})).toBe('s');
    expect(listTabStop([], null, links, {})).toBeNull();
  });
});
