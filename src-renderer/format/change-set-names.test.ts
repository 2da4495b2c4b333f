import { describe, expect, it } from 'vitest';
import type { ChangeSetRecord } from '../../src-shared/checkpoint-model';
import { changeSetCount, describeChangeSets, revertNotice } from './change-set-names';

type Entry = Pick<ChangeSetRecord, 'changeSetId' | 'origin' | 'revertsChangeSetId' | 'status' | 'files'> & { turnText: string | null };
const file = (path: string) => ({ path, change: 'modified' as const, added: 1, removed: 1, writer: { kind: 'revert' as const } });
const entry = (changeSetId: string, origin: Entry['origin'], reverts: string | null, paths: string[], status: Entry['status'] = 'complete'): Entry => ({
  changeSetId,
  origin,
  revertsChangeSetId: reverts,
  status,
  files: paths.map(file),
  turnText: 'write a.md',
});

describe('naming the Changes panel’s entries', () => {
  it('names an undo of a revert as an undo, marks the revert undone, and offers Undo on neither', () => {
    const named = describeChangeSets([entry('t', 'turn', null, ['a.md']), entry('r', 'revert', 't', ['a.md']), entry('u', 'revert', 'r', ['a.md'])]);
    expect(named.get('t')).toMatchObject({ kind: 'turn', title: 'Turn “write a.md”', revertLabel: 'Revert this turn', undone: false });
    expect(named.get('r')).toMatchObject({ kind: 'revert', title: 'Revert of “write a.md”', revertLabel: null, undone: true });
    expect(named.get('u')).toMatchObject({ kind: 'undo', title: 'Undo of the revert of “write a.md”', revertLabel: null });
    expect(revertNotice(named.get('r'), 1)).toBe('Undid the revert of “write a.md”: 1 file put back.');
    expect(revertNotice(named.get('t'), 2)).toBe('Reverted 2 files.');
  });

  it('keeps Undo on a revert until all of its files are undone, and hides Revert file on those that are', () => {
    const named = describeChangeSets([entry('t', 'turn', null, ['a.md', 'b.md']), entry('r', 'revert', 't', ['a.md', 'b.md']), entry('u', 'revert', 'r', ['a.md'])]);
    expect(named.get('r')).toMatchObject({ revertLabel: 'Undo this revert', undone: false });
    expect([...(named.get('r')?.undoneFiles ?? [])]).toEqual(['a.md']);
    // An undo still being recorded does not count yet.
    const recording = describeChangeSets([entry('t', 'turn', null, ['a.md']), entry('r', 'revert', 't', ['a.md']), entry('u', 'revert', 'r', [], 'open')]);
    expect(recording.get('r')).toMatchObject({ revertLabel: 'Undo this revert', undone: false });
  });

  it('names the undo of a rewind, and a redo (a revert of an undo)', () => {
    const named = describeChangeSets([entry('w', 'rewind', null, ['a.md']), entry('u', 'revert', 'w', ['a.md']), entry('d', 'revert', 'u', ['a.md'])]);
    expect(named.get('w')).toMatchObject({ title: 'Rewind to before “write a.md”', revertLabel: null, undone: true });
    expect(named.get('u')).toMatchObject({ kind: 'undo', title: 'Undo of the rewind to before “write a.md”' });
    expect(named.get('d')).toMatchObject({ kind: 'redo', title: 'Redo of the rewind to before “write a.md”', revertLabel: 'Undo this redo' });
    expect(revertNotice(named.get('w'), 3)).toBe('Undid the rewind to before “write a.md”: 3 files put back.');
  });

  it('says a turn that changed nothing changed no file, not "0 files"', () => {
    const named = describeChangeSets([entry('t', 'turn', null, [])]);
    expect(changeSetCount(entry('t', 'turn', null, []), named.get('t'))).toBe('no file changed');
    expect(named.get('t')?.revertLabel).toBe('Revert this turn');
    expect(changeSetCount(entry('x', 'turn', null, ['a.md', 'b.md']), undefined)).toBe('2 files');
    expect(changeSetCount(entry('x', 'turn', null, [], 'absent'), undefined)).toBe('no checkpoint');
  });
});
