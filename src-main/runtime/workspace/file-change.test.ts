import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lineChanges, unifiedDiff } from './file-change';

const dir = mkdtempSync(join(tmpdir(), 'cairn-line-changes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What git's numstat (the Changes panel's count) says of the change from `before` to `after`. */
function gitNumstat(before: string, after: string): { added: number; removed: number } {
  writeFileSync(join(dir, 'before'), before);
  writeFileSync(join(dir, 'after'), after);
  let out: string;
  try {
    out = execFileSync('git', ['diff', '--no-index', '--numstat', 'before', 'after'], { cwd: dir, encoding: 'utf8' });
  } catch (error) {
    // --no-index exits 1 when the files differ.
    out = String((error as { stdout?: string }).stdout);
  }
  const [added, removed] = out.split('\t');
  return { added: Number(added), removed: Number(removed) };
}

/** What the approval's diff shows: its + and − lines. */
function approvalCounts(before: string, after: string): { added: number; removed: number } {
  const lines = unifiedDiff('f.txt', before, after).split('\n');
  const body = lines.slice(lines.findIndex((line) => line.startsWith('+++ ')) + 1);
  return {
    added: body.filter((line) => line.startsWith('+')).length,
    removed: body.filter((line) => line.startsWith('-')).length,
  };
}

const CASES: [string, string, string][] = [
  ['one line of two replaced by two', 'line one\nline two\n', 'line one\nline 2\nline three\n'],
  ['a whole file replaced', 'line one\nline two\n', 'agent\n'],
  ['a line added in the middle', 'a\nb\nc\n', 'a\nb\nx\nc\n'],
  ['the final newline added', 'a\nb', 'a\nb\n'],
  ['the final newline removed', 'a\nb\n', 'a\nb'],
  ['emptied', 'a\nb\n', ''],
  ['unchanged lines around a change', 'keep\nold\nkeep too\n', 'keep\nnew\nkeep too\n'],
];

describe('lineChanges: one counting rule for the transcript, the approval diff and the Changes panel', () => {
  it.each(CASES)('%s: counts what git numstat and the approval diff count', (_name, before, after) => {
    const counts = lineChanges(before, after);
    expect(counts).toEqual(gitNumstat(before, after));
    expect(counts).toEqual(approvalCounts(before, after));
  });

  it('counts a new file as every line added', () => {
    expect(lineChanges(null, 'a\nb\n')).toEqual({ added: 2, removed: 0 });
    expect(lineChanges('', 'a\nb')).toEqual({ added: 2, removed: 0 });
    expect(lineChanges(null, '')).toEqual({ added: 0, removed: 0 });
  });
});
