import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { outcome, tempWorkspace, toolContext } from '../../testing/workspace-fixture';
import { createListFilesTool, LIST_FILES_LIMITS } from './list-files-tool';

describe('list_files', () => {
  let ws: ReturnType<typeof tempWorkspace>;
  const list = async (input: unknown) =>
    outcome(await createListFilesTool({ root: ws.root }).execute(input, toolContext()));
  beforeEach(() => {
    ws = tempWorkspace();
    ws.write('.gitignore', 'node_modules/\n*.log\ndist\n');
    ws.write('.git/HEAD', 'ref: refs/heads/main\n');
    ws.write('src/app.ts', '');
    ws.write('src/debug.log', '');
    ws.write('src/deep/er/file.ts', '');
    ws.write('src/.gitignore', 'generated.ts\n!keep.log\n');
    ws.write('src/generated.ts', '');
    ws.write('src/keep.log', '');
    ws.write('node_modules/pkg/index.js', '');
    ws.write('dist/out.js', '');
    ws.write('README.md', '');
  });
  afterEach(() => ws.cleanup());

  it('lists sorted, folders marked, two levels by default, honouring nested .gitignore files and skipping .git', async () => {
    const { output, isError } = await list({});
    expect(isError).toBe(false);
    expect(String(output.entries).split('\n')).toEqual([
      '.gitignore',
      'README.md',
      'src/',
      'src/.gitignore',
      'src/app.ts',
      'src/deep/',
      'src/keep.log',
    ]);
    expect(output.note).toMatch(/Folders at the depth limit are not expanded/);
  });

  it('goes deeper with depth and lists a subfolder by path', async () => {
    expect(String((await list({ path: 'src', depth: 3 })).output.entries).split('\n')).toEqual([
      'src/.gitignore',
      'src/app.ts',
      'src/deep/',
      'src/deep/er/',
      'src/deep/er/file.ts',
      'src/keep.log',
    ]);
    expect((await list({ path: 'src', depth: 1 })).output.entries).toBe(
      'src/.gitignore\nsrc/app.ts\nsrc/deep/\nsrc/keep.log',
    );
  });

  it('lists an ignored folder asked for by name, and says so', async () => {
    const { output } = await list({ path: 'node_modules' });
    expect(output.entries).toBe('node_modules/pkg/\nnode_modules/pkg/index.js');
    expect(output.note).toMatch(
      /"node_modules" is ignored by \.gitignore; it is listed because it was asked for by path/,
    );
  });

  it('shows symbolic links with their target without following them', async () => {
    symlinkSync(ws.outside, path.join(ws.root, 'src/escape'));
    ws.write('../outside/secret.txt', 'secret');
    const entries = String((await list({ path: 'src', depth: 5 })).output.entries);
    expect(entries).toContain(`src/escape -> ${ws.outside}`);
    expect(entries).not.toContain('secret.txt');
  });

  it(`stops at ${LIST_FILES_LIMITS.maxEntries} entries with a note`, async () => {
    mkdirSync(path.join(ws.root, 'many'));
    for (let i = 0; i < 1100; i += 1) ws.write(`many/f${String(i).padStart(4, '0')}.txt`, '');
    const { output } = await list({ path: 'many' });
    expect(output.count).toBe(1000);
    expect(output.truncated).toBe(true);
    expect(output.note).toMatch(/Stopped at 1000 entries\. List a subfolder \(path\) or use glob to narrow down\./);
  });

  it('refuses escapes, files and bad input', async () => {
    expect((await list({ path: '..' })).output.error).toMatch(/climbs out/);
    expect((await list({ path: 'README.md' })).output.error).toMatch(/is a file, not a folder/);
    expect((await list({ depth: 0 })).output.error).toMatch(/"depth"/);
    expect((await list({ depth: 2, recursive: true })).output.error).toMatch(/recursive/);
  });
});
