import { describe, expect, it } from 'vitest';
import { branchesUnder, groupBranches } from './branch-groups';

describe('groupBranches', () => {
  const origins: Record<string, string> = { b1: 's1', b2: 's1', bb: 'b1', orphan: 'gone' };
  const branchOf = (sessionId: string) => origins[sessionId] ?? null;

  it('lists a branch under its listed origin, a branch of a branch under its own, in list order', () => {
    const groups = groupBranches(['b2', 's2', 'bb', 's1', 'b1'], branchOf);
    expect(groups.top).toEqual(['s2', 's1']);
    expect(groups.branchesOf).toEqual({ s1: ['b2', 'b1'], b1: ['bb'] });
    expect(branchesUnder(groups, 's1')).toEqual(['b2', 'b1', 'bb']);
  });

  it('keeps a branch whose origin is not listed (deleted, archived, filtered out) at the top level', () => {
    const ids = ['orphan', 'b1', 's2'];
    expect(groupBranches(ids, branchOf)).toEqual({ top: ids, branchesOf: {} });
  });
});
