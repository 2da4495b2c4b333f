import { describe, expect, it } from 'vitest';
import type { ListedChangeSet } from '../../src-shared/checkpoint-model';
import { changeSetCount, describeChangeSets, revertNotice } from './change-set-names';

type Entry = Pick<
  ListedChangeSet,
  'changeSetId' | 'origin' | 'revertsChangeSetId' | 'status' | 'fileCount' | 'undone' | 'turnText'
>;
const entry = (
  changeSetId: string,
  origin: Entry['origin'],
  reverts: string | null,
  fileCount: number,
  undone: Entry['undone'] = [],
  status: Entry['status'] = 'complete',
): Entry => ({ changeSetId, origin, revertsChangeSetId: reverts, status, fileCount, undone, turnText: 'write a.md' });

describe('naming the Changes panel’s entries', () => {
  it('names an undo of a revert as an undo, marks the revert undone, and offers Undo on neither', () => {
    const named = describeChangeSets([
      entry('t', 'turn', null, 1),
      entry('r', 'revert', 't', 1, 'all'),
      entry('u', 'revert', 'r', 1),
    ]);
    expect(named.get('t')).toMatchObject({
      kind: 'turn',
      title: 'Turn “write a.md”',
      revertLabel: 'Revert this turn',
      undone: false,
    });
    expect(named.get('r')).toMatchObject({
      kind: 'revert',
      title: 'Revert of “write a.md”',
      revertLabel: null,
      undone: true,
    });
    expect(named.get('u')).toMatchObject({
      kind: 'undo',
      title: 'Undo of the revert of “write a.md”',
      revertLabel: null,
    });
    expect(revertNotice(named.get('r'), 1)).toBe('Undid the revert of “write a.md”: 1 file put back.');
    expect(revertNotice(named.get('t'), 2)).toBe('Reverted 2 files.');
    expect(revertNotice(named.get('t'), 1000)).toBe('Reverted 1,000 files.');
  });

  it('keeps Undo on a revert until all of its files are undone, and hides Revert file on those that are', () => {
    const named = describeChangeSets([
      entry('t', 'turn', null, 2),
      entry('r', 'revert', 't', 2, ['a.md']),
      entry('u', 'revert', 'r', 1),
    ]);
    expect(named.get('r')).toMatchObject({ revertLabel: 'Undo this revert', undone: false });
    expect([named.get('r')?.fileUndone('a.md'), named.get('r')?.fileUndone('b.md')]).toEqual([true, false]);
  });

  it('offers no Revert this turn on a turn whose files were all reverted, and says it was reverted', () => {
    const named = describeChangeSets([entry('t', 'turn', null, 1000, 'all'), entry('r', 'revert', 't', 1000)]);
    expect(named.get('t')).toMatchObject({ kind: 'turn', revertLabel: null, undone: true });
    expect(named.get('t')?.fileUndone('any.md')).toBe(true);
    expect(changeSetCount(entry('t', 'turn', null, 1000, 'all'), named.get('t'))).toBe('1,000 files, reverted');
    const revert = entry('r', 'revert', 't', 1000, 'all');
    expect(changeSetCount(revert, describeChangeSets([entry('t', 'turn', null, 1000), revert]).get('r'))).toBe(
      '1,000 files, undone',
    );
    // Reverted in part (one file): the turn still offers Revert this turn, and Revert file on the others.
    const partly = describeChangeSets([entry('t', 'turn', null, 2, ['a.md']), entry('r', 'revert', 't', 1)]);
    expect(partly.get('t')).toMatchObject({ revertLabel: 'Revert this turn', undone: false });
    expect([partly.get('t')?.fileUndone('a.md'), partly.get('t')?.fileUndone('b.md')]).toEqual([true, false]);
  });

  it('names the undo of a rewind, and a redo (a revert of an undo)', () => {
    const named = describeChangeSets([
      entry('w', 'rewind', null, 1),
      entry('u', 'revert', 'w', 1, 'all'),
      entry('d', 'revert', 'u', 1),
    ]);
    expect(named.get('w')).toMatchObject({ title: 'Rewind to before “write a.md”', revertLabel: 'Undo this rewind' });
    expect(named.get('u')).toMatchObject({
      kind: 'undo',
      title: 'Undo of the rewind to before “write a.md”',
      undone: true,
    });
    expect(named.get('d')).toMatchObject({
      kind: 'redo',
      title: 'Redo of the rewind to before “write a.md”',
      revertLabel: 'Undo this redo',
    });
    expect(revertNotice(named.get('w'), 3)).toBe('Undid the rewind to before “write a.md”: 3 files put back.');
  });

  it('says a turn that changed nothing changed no file, not "0 files"', () => {
    const named = describeChangeSets([entry('t', 'turn', null, 0)]);
    expect(changeSetCount(entry('t', 'turn', null, 0), named.get('t'))).toBe('no file changed');
    expect(named.get('t')?.revertLabel).toBe('Revert this turn');
    expect(changeSetCount(entry('x', 'turn', null, 2), undefined)).toBe('2 files');
    expect(changeSetCount(entry('x', 'turn', null, 0, [], 'absent'), undefined)).toBe('no checkpoint');
  });
});
