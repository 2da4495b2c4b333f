import { symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { outcome, tempWorkspace, toolContext } from '../../testing/workspace-fixture';
import { createGrepTool, GREP_LIMITS } from './grep-tool';

describe('grep', () => {
  let ws: ReturnType<typeof tempWorkspace>;
  const grep = async (input: unknown) => outcome(await createGrepTool({ root: ws.root }).execute(input, toolContext()));
  beforeEach(() => {
    ws = tempWorkspace();
    ws.write('.gitignore', 'dist/\n');
    ws.write(
      'src/a.ts',
      'import x from "y";\nfunction alpha() {}\nconst TODO = 1;\n// todo: later\nfunction beta() {}\n',
    );
    ws.write('src/b.js', 'function gamma() {}\n');
    ws.write('dist/a.js', 'function alpha() {}\n');
    ws.write('.git/hooks/x', 'function hidden() {}\n');
  });
  afterEach(() => ws.cleanup());

  it('finds matching lines as path:line:text, skipping ignored files and .git', async () => {
    const { output, isError } = await grep({ pattern: 'function \\w+' });
    expect(isError).toBe(false);
    expect(output).toEqual({
      pattern: 'function \\w+',
      path: '.',
      matches: 3,
      files: 2,
      content: 'src/a.ts:2:function alpha() {}\nsrc/a.ts:5:function beta() {}\nsrc/b.js:1:function gamma() {}',
    });
  });

  it('filters by glob at any depth, searches one file by path, and ignores case on request', async () => {
    expect((await grep({ pattern: 'function', glob: '*.js' })).output.content).toBe('src/b.js:1:function gamma() {}');
    expect((await grep({ pattern: 'todo', path: 'src/a.ts' })).output.content).toBe('src/a.ts:4:// todo: later');
    expect((await grep({ pattern: 'todo', caseSensitive: false })).output.content).toBe(
      'src/a.ts:3:const TODO = 1;\nsrc/a.ts:4:// todo: later',
    );
    expect((await grep({ pattern: 'alpha', path: 'dist' })).output).toMatchObject({
      matches: 1,
      note: expect.stringMatching(/ignored by \.gitignore/),
    });
  });

  it('shows context lines, merging overlaps and separating groups', async () => {
    ws.write('ctx.txt', ['a', 'hit 1', 'b', 'hit 2', 'c', 'd', 'e', 'hit 3', 'f'].join('\n'));
    const { output } = await grep({ pattern: '^hit', path: 'ctx.txt', contextLines: 1 });
    expect(output.content).toBe(
      [
        'ctx.txt-1-a',
        'ctx.txt:2:hit 1',
        'ctx.txt-3-b',
        'ctx.txt:4:hit 2',
        'ctx.txt-5-c',
        '--',
        'ctx.txt-7-e',
        'ctx.txt:8:hit 3',
        'ctx.txt-9-f',
      ].join('\n'),
    );
    expect(output.matches).toBe(3);
  });

  it('answers an invalid regular expression with a clear error', async () => {
    const { output, isError } = await grep({ pattern: 'foo(bar' });
    expect(isError).toBe(true);
    expect(output.error).toMatch(/^"foo\(bar" is not a valid regular expression \(.*\)\. Escape special characters/);
  });

  it('skips binary files and does not follow links out of the workspace', async () => {
    writeFileSync(path.join(ws.root, 'blob.bin'), Buffer.concat([Buffer.from('function x\0'), Buffer.alloc(10)]));
    ws.write('../outside/leak.ts', 'function leaked() {}\n');
    symlinkSync(ws.outside, path.join(ws.root, 'escape'));
    symlinkSync(path.join(ws.outside, 'leak.ts'), path.join(ws.root, 'leak.ts'));
    const { output } = await grep({ pattern: 'function' });
    expect(output.content).not.toMatch(/blob\.bin|leaked/);
    expect((await grep({ pattern: 'x', path: 'escape' })).output.error).toMatch(/outside the workspace/);
  });

  it(`stops at ${GREP_LIMITS.maxMatches} matches with a note saying how to narrow down`, async () => {
    ws.write('many.txt', Array.from({ length: 800 }, (_, i) => `match ${i}`).join('\n'));
    const { output } = await grep({ pattern: 'match', path: 'many.txt' });
    expect(output).toMatchObject({ matches: 500, truncated: true });
    expect(String(output.content).split('\n')).toHaveLength(500);
    expect(output.note).toMatch(
      /Output stopped at the limit \(500 matches or 50 KB\)\. Narrow the search with path, glob or a more specific pattern\./,
    );
  });

  it('refuses escapes and bad input', async () => {
    expect((await grep({ pattern: 'x', path: '../outside' })).output.error).toMatch(/climbs out/);
    expect((await grep({ pattern: 'x', glob: '../*.ts' })).output.error).toMatch(/climbs out/);
    expect((await grep({ pattern: '' })).output.error).toMatch(/"pattern"/);
    expect((await grep({ pattern: 'x', contextLines: 99 })).output.error).toMatch(/"contextLines"/);
  });
});
