import { describe, expect, it } from 'vitest';
import type { SessionRecord } from '../../../src-shared/model';
import type { BranchRecord } from '../../storage/branch-store';
import type { StoredChangeSet } from '../../storage/checkpoint-store';
import { branchLineage, type LineageStores } from './branch-lineage';

const changeSet = (sessionId: string, changeSetId: string, createdAt: number) =>
  ({ sessionId, changeSetId, createdAt }) as StoredChangeSet;
const branch = (sessionId: string, sourceSessionId: string, now: number) =>
  ({ sessionId, sourceSessionId, now }) as BranchRecord;

/** Sessions with their change sets; branches by session. */
function stores(changeSets: StoredChangeSet[], branches: BranchRecord[], deleted: string[] = []): LineageStores {
  return {
    sessions: { get: (sessionId) => (deleted.includes(sessionId) ? null : ({ sessionId } as SessionRecord)) },
    checkpoints: { list: (sessionId) => changeSets.filter((set) => set.sessionId === sessionId) },
    branches: { get: (sessionId) => branches.find((item) => item.sessionId === sessionId) ?? null },
  };
}

const ids = (sets: readonly StoredChangeSet[]) => sets.map((set) => set.changeSetId);

describe('branchLineage', () => {
  it('is a session’s own change sets when it is no branch', () => {
    expect(ids(branchLineage(stores([changeSet('p', 'a', 1), changeSet('q', 'x', 2)], []), 'p').changeSets)).toEqual([
      'a',
    ]);
  });

  it('takes each source’s change sets made up to its branch, oldest generation first, to any depth', () => {
    const sets = [
      changeSet('p', 'a', 10),
      changeSet('p', 'b', 20),
      changeSet('s1', 'rewind-b', 31),
      changeSet('p', 'p-later', 40), // made in the source after s1 branched: not s1's history
      changeSet('s1', 's1-own', 50),
      changeSet('s2', 'rewind-a', 61),
      changeSet('s1', 's1-later', 70), // after s2 branched from s1
    ];
    const branches = [branch('s1', 'p', 30), branch('s2', 's1', 60)];
    const lineage = branchLineage(stores(sets, branches), 's2');
    expect(ids(lineage.changeSets)).toEqual(['a', 'b', 'rewind-b', 's1-own', 'rewind-a']);
    expect(lineage.unknownBefore).toBeNull();
  });

  it('includes a source’s change set made in the same millisecond as the branch', () => {
    expect(
      ids(
        branchLineage(stores([changeSet('p', 'a', 30), changeSet('s', 'own', 30)], [branch('s', 'p', 30)]), 's')
          .changeSets,
      ),
    ).toEqual(['a', 'own']);
  });

  it('says from when the history is unknown when a source on the way was deleted', () => {
    const lineage = branchLineage(
      stores(
        [changeSet('s1', 'own-1', 35), changeSet('s2', 'own-2', 65)],
        [branch('s1', 'p', 30), branch('s2', 's1', 60)],
        ['p'],
      ),
      's2',
    );
    expect(ids(lineage.changeSets)).toEqual(['own-1', 'own-2']);
    expect(lineage.unknownBefore).toBe(30);
  });

  it('stops at a loop of branch records instead of running forever', () => {
    expect(
      ids(branchLineage(stores([changeSet('a', 'x', 1)], [branch('a', 'b', 5), branch('b', 'a', 5)]), 'a').changeSets),
    ).toEqual(['x']);
  });
});
