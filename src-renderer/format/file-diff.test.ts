import { describe, expect, it } from 'vitest';
import { diffCounts, diffLineKind, editFileDiff, writeFileDiff } from './file-diff';

describe('file diffs for the transcript', () => {
  it('shows an edit as its search removed and its replacement added', () => {
    const diff = editFileDiff('notes.md', 'line two\nline three', 'line 2');
    expect(diff.split('\n')).toEqual(['--- a/notes.md', '+++ b/notes.md', '-line two', '-line three', '+line 2']);
    expect(diffCounts(diff)).toEqual({ added: 1, removed: 2 });
  });

  it('shows a written file as added lines, from nothing when it was created', () => {
    expect(writeFileDiff('x.txt', 'a\nb\n', false).split('\n')).toEqual(['--- /dev/null', '+++ b/x.txt', '@@ -0,0 +1,2 @@', '+a', '+b']);
    expect(writeFileDiff('x.txt', 'c', true).split('\n')).toEqual(['--- a/x.txt', '+++ b/x.txt', '+c']);
  });

  it('tells the kinds of lines apart', () => {
    expect(['+++ b/x', '--- a/x', '@@ -1 +1 @@', '+new', '-old', ' same'].map(diffLineKind)).toEqual(['meta', 'meta', 'hunk', 'add', 'remove', 'context']);
  });
});
