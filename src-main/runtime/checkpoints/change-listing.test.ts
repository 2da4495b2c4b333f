import { describe, expect, it } from 'vitest';
import type { ChangeSetStatus } from '../../../src-shared/checkpoint-model';
import { listedFiles, listedUndone, undoneFiles } from './change-listing';

const set = (changeSetId: string, revertsChangeSetId: string | null, status: ChangeSetStatus = 'complete') => ({
  changeSetId,
  revertsChangeSetId,
  status,
});

/** `undoneFiles` over change sets with these paths, and which change sets it read the paths of. */
function undone(changeSets: ReturnType<typeof set>[], paths: Record<string, string[]>) {
  const read: string[] = [];
  const found = undoneFiles(changeSets, (changeSetId) => {
    read.push(changeSetId);
    return paths[changeSetId] ?? [];
  });
  return { found: Object.fromEntries([...found].map(([id, files]) => [id, [...files].sort()])), read };
}

describe('which listed files later changes put back', () => {
  it('reads no paths when nothing reverts anything', () => {
    expect(undone([set('t1', null), set('t2', null)], {})).toEqual({ found: { t1: [], t2: [] }, read: [] });
  });

  it('counts a turn’s reverts, a revert’s undo, and a redo, each while it is not undone itself', () => {
    const paths = { t: ['a.md', 'b.md'], r: ['a.md', 'b.md'], u: ['a.md'], d: ['a.md'] };
    // A revert of the turn: both files are back.
    expect(undone([set('t', null), set('r', 't')], paths).found).toEqual({ t: ['a.md', 'b.md'], r: [] });
    // Its undo for a.md: the turn's a.md is in place again, and the revert's a.md is undone.
    expect(undone([set('t', null), set('r', 't'), set('u', 'r')], paths).found).toEqual({
      t: ['b.md'],
      r: ['a.md'],
      u: [],
    });
    // A redo of that undo: a.md is reverted again.
    expect(undone([set('t', null), set('r', 't'), set('u', 'r'), set('d', 'u')], paths).found).toEqual({
      t: ['a.md', 'b.md'],
      r: [],
      u: ['a.md'],
      d: [],
    });
  });

  it('does not count a revert still being recorded, nor one of a change set not listed, nor a path the target never had', () => {
    expect(undone([set('t', null), set('r', 't', 'open')], { t: ['a.md'], r: ['a.md'] }).found).toEqual({
      t: [],
      r: [],
    });
    expect(undone([set('r', 'elsewhere')], { r: ['a.md'] })).toEqual({ found: { r: [] }, read: [] });
    // Open both writes a copy beside the person's file: the copy is no file of the turn.
    expect(
      undone([set('t', null), set('r', 't')], { t: ['a.md', 'b.md'], r: ['a.cairn-checkpoint.md', 'b.md'] }).found,
    ).toEqual({ t: ['b.md'], r: [] });
  });

  it('lists all undone as `all`, some as their paths', () => {
    expect(listedUndone(new Set(['a.md', 'b.md']), 2)).toBe('all');
    expect(listedUndone(new Set(['b.md', 'a.md']), 3)).toEqual(['a.md', 'b.md']);
    expect(listedUndone(undefined, 3)).toEqual([]);
  });

  it('sends each writer once and names it by index', () => {
    const command = { kind: 'command' as const, command: 'make' };
    const listed = listedFiles([
      { path: 'a', change: 'created', added: 1, removed: 0, writer: command },
      { path: 'b', change: 'created', added: 1, removed: 0, writer: { kind: 'file_tool', tool: 'write_file' } },
      { path: 'c', change: 'deleted', added: 0, removed: 1, writer: { ...command } },
    ]);
    expect(listed.writers).toEqual([command, { kind: 'file_tool', tool: 'write_file' }]);
    expect(listed.files.map((file) => file.writer)).toEqual([0, 1, 0]);
  });
});
