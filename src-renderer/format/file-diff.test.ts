import { describe, expect, it } from 'vitest';
import { diffBody, diffCounts, editFileDiff, toolChangeCounts, writeFileDiff } from './file-diff';

describe('file diffs for the transcript', () => {
  it('shows an edit as its search removed and its replacement added', () => {
    const diff = editFileDiff('notes.md', 'line two\nline three', 'line 2');
    expect(diff.split('\n')).toEqual(['--- a/notes.md', '+++ b/notes.md', '-line two', '-line three', '+line 2']);
    expect(diffCounts(diff)).toEqual({ added: 1, removed: 2 });
  });

  it('shows a written file as added lines, from nothing when it was created', () => {
    expect(writeFileDiff('x.txt', 'a\nb\n', false).split('\n')).toEqual([
      '--- /dev/null',
      '+++ b/x.txt',
      '@@ -0,0 +1,2 @@',
      '+a',
      '+b',
    ]);
    expect(writeFileDiff('x.txt', 'c', true).split('\n')).toEqual(['--- a/x.txt', '+++ b/x.txt', '+c']);
  });

  it('tells the kinds of lines apart', () => {
    expect(diffBody('--- a/x\n+++ b/x\n@@ -1 +1 @@\n+new\n-old\n same').map((line) => line.kind)).toEqual([
      'hunk',
      'add',
      'remove',
      'context',
    ]);
  });

  it('shows the hunks without the file header, which the view replaces by the path shown once', () => {
    const patch = [
      'Index: notes.md',
      '===================================================================',
      '--- a/notes.md',
      '+++ b/notes.md',
      '@@ -1,2 +1,2 @@',
      ' line one',
      '-line two',
      '+line 2',
    ].join('\n');
    expect(diffBody(patch).map((line) => line.text)).toEqual(['@@ -1,2 +1,2 @@', ' line one', '-line two', '+line 2']);
    // Only the leading header goes: a removed "-- comment" line after it is content, and counted.
    const sql = editFileDiff('x.sql', '-- comment', '-- note');
    expect(diffBody(sql)).toEqual([
      { text: '--- comment', kind: 'remove' },
      { text: '+-- note', kind: 'add' },
    ]);
    expect(diffCounts(sql)).toEqual({ added: 1, removed: 1 });
  });

  it('counts a call’s lines as its result reports them, never a replaced file’s whole content as added', () => {
    const replaced = writeFileDiff('notes.md', 'line one\nline 2\nline three\n', true);
    // The host's count (as the approval diff and the Changes panel count) wins over the record's diff.
    expect(toolChangeCounts('write_file', {}, { created: false, added: 2, removed: 1 }, replaced)).toEqual({
      added: 2,
      removed: 1,
    });
    // A result without counts (an older record) cannot tell what a replaced file lost: no count, not "+3 −0".
    expect(toolChangeCounts('write_file', {}, { created: false }, replaced)).toBeNull();
    // An older edit's record: its search and replacement diffed line by line, unchanged context not counted.
    expect(
      toolChangeCounts(
        'edit_file',
        { search: 'same\nold', replace: 'same\nnew' },
        { replaced: 1 },
        editFileDiff('a', 'same\nold', 'same\nnew'),
      ),
    ).toEqual({
      added: 1,
      removed: 1,
    });
    // A new file's content and a diff the call carries hold the whole change.
    expect(toolChangeCounts('write_file', {}, { created: true }, writeFileDiff('x.txt', 'a\nb\n', false))).toEqual({
      added: 2,
      removed: 0,
    });
    const carried = '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new';
    expect(toolChangeCounts('apply_patch', { diff: carried }, undefined, carried)).toEqual({ added: 1, removed: 1 });
  });
});
