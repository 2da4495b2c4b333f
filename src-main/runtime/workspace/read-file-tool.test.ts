import { symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { outcome, tempWorkspace, toolContext } from '../../testing/workspace-fixture';
import { createReadFileTool, READ_FILE_LIMITS } from './read-file-tool';

describe('read_file', () => {
  let ws: ReturnType<typeof tempWorkspace>;
  const read = async (input: unknown) =>
    outcome(await createReadFileTool({ root: ws.root }).execute(input, toolContext()));
  beforeEach(() => {
    ws = tempWorkspace();
  });
  afterEach(() => ws.cleanup());

  it('returns numbered lines, the whole file when it fits', async () => {
    ws.write('src/a.ts', 'one\r\ntwo\nthree\n');
    expect(await read({ path: 'src/a.ts' })).toEqual({
      isError: false,
      output: {
        path: 'src/a.ts',
        startLine: 1,
        endLine: 3,
        totalLines: 3,
        content: '     1\tone\n     2\ttwo\n     3\tthree',
      },
    });
  });

  it('reads a window with startLine and endLine', async () => {
    ws.write('a.txt', Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n'));
    const { output } = await read({ path: 'a.txt', startLine: 4, endLine: 5 });
    expect(output).toMatchObject({ startLine: 4, endLine: 5, content: '     4\tline 4\n     5\tline 5' });
    expect((await read({ path: 'a.txt', startLine: 9 })).output).toMatchObject({
      endLine: 10,
      totalLines: 10,
      content: '     9\tline 9\n    10\tline 10',
    });
    expect(await read({ path: 'a.txt', startLine: 20 })).toEqual({
      isError: true,
      output: { error: '"a.txt" has 10 lines; startLine 20 is past its end.' },
    });
    expect((await read({ path: 'a.txt', startLine: 5, endLine: 4 })).output.error).toMatch(
      /endLine \(4\) comes before startLine \(5\)/,
    );
  });

  it(`stops at ${READ_FILE_LIMITS.maxLines} lines and says how to read more`, async () => {
    ws.write('big.txt', Array.from({ length: 3000 }, (_, i) => `${i + 1}`).join('\n'));
    const { output, isError } = await read({ path: 'big.txt' });
    expect(isError).toBe(false);
    expect(output).toMatchObject({ startLine: 1, endLine: 2000, truncated: true });
    expect(output.note).toBe(
      'Output stopped at the 2000 lines limit. To read more, call read_file with startLine 2001.',
    );
    expect(String(output.content).split('\n')).toHaveLength(2000);
    expect((await read({ path: 'big.txt', startLine: 2001 })).output).toMatchObject({
      startLine: 2001,
      endLine: 3000,
      totalLines: 3000,
    });
  });

  it('stops at 100 KB and clips enormous lines', async () => {
    ws.write('wide.txt', Array.from({ length: 300 }, () => 'x'.repeat(1000)).join('\n'));
    const { output } = await read({ path: 'wide.txt' });
    expect(Buffer.byteLength(String(output.content))).toBeLessThanOrEqual(READ_FILE_LIMITS.maxBytes);
    expect(output).toMatchObject({ truncated: true });
    expect(output.note).toMatch(/100 KB limit\. To read more, call read_file with startLine \d+\./);

    ws.write('minified.js', `${'y'.repeat(50_000)}\nsecond`);
    const minified = await read({ path: 'minified.js' });
    expect(minified.output.content).toBe(`     1\t${'y'.repeat(2000)}… [line cut at 2000 characters]\n     2\tsecond`);
  });

  it('refuses binary files, folders, missing files and paths outside the workspace', async () => {
    writeFileSync(path.join(ws.root, 'image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    expect((await read({ path: 'image.png' })).output.error).toMatch(/looks like a binary file/);
    ws.write('src/x.ts', '');
    expect((await read({ path: 'src' })).output.error).toMatch(/"src" is a folder\. Use list_files/);
    expect((await read({ path: 'nope.txt' })).output.error).toMatch(/does not exist in the workspace/);
    expect((await read({ path: '../outside/secret' })).output.error).toMatch(/climbs out of the workspace/);
    ws.write('../outside/secret', 'secret');
    symlinkSync(path.join(ws.outside, 'secret'), path.join(ws.root, 'secret'));
    expect((await read({ path: 'secret' })).output.error).toMatch(/symbolic link .* outside the workspace/);
    expect(await read({ path: 'src/x.ts' })).toEqual({
      isError: false,
      output: { path: 'src/x.ts', startLine: 1, endLine: 0, totalLines: 0, content: '', note: 'The file is empty.' },
    });
  });

  it('answers bad input with an error, never a throw', async () => {
    expect((await read({})).output.error).toMatch(/The input to read_file is not valid: "path"/);
    expect((await read({ path: 'a', extra: 1 })).output.error).toMatch(/Unrecognized key.*extra/);
    expect((await read({ path: 'a', startLine: 0 })).output.error).toMatch(/"startLine"/);
    expect((await read('a.txt')).isError).toBe(true);
  });
});
