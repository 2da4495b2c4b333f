import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { outcome, tempWorkspace, toolContext } from '../../testing/workspace-fixture';
import { createGlobTool, GLOB_LIMITS } from './glob-tool';

describe('glob', () => {
  let ws: ReturnType<typeof tempWorkspace>;
  const glob = async (input: unknown) => outcome(await createGlobTool({ root: ws.root }).execute(input, toolContext()));
  beforeEach(() => {
    ws = tempWorkspace();
    ws.write('.gitignore', 'node_modules/\nbuild/\n');
    ws.write('.git/config', '');
    ws.write('a.ts', '');
    ws.write('src/b.ts', '');
    ws.write('src/c.tsx', '');
    ws.write('src/lib/d.ts', '');
    ws.write('src/.hidden.ts', '');
    ws.write('node_modules/pkg/index.ts', '');
    ws.write('build/out.ts', '');
  });
  afterEach(() => ws.cleanup());

  it('matches across folders, sorted, skipping ignored folders and .git', async () => {
    const { output, isError } = await glob({ pattern: '**/*.ts' });
    expect(isError).toBe(false);
    expect(output).toEqual({
      pattern: '**/*.ts',
      path: '.',
      files: 'a.ts\nsrc/.hidden.ts\nsrc/b.ts\nsrc/lib/d.ts',
      count: 4,
    });
    expect((await glob({ pattern: '*.ts' })).output.files).toBe('a.ts');
    expect((await glob({ pattern: '**/*.{ts,tsx}', path: 'src' })).output.files).toBe(
      'src/.hidden.ts\nsrc/b.ts\nsrc/c.tsx\nsrc/lib/d.ts',
    );
    expect((await glob({ pattern: '**/config' })).output).toMatchObject({ count: 0, note: 'No files match.' });
  });

  it('searches an ignored folder asked for by path', async () => {
    expect((await glob({ pattern: '**/*.ts', path: 'node_modules' })).output).toMatchObject({
      files: 'node_modules/pkg/index.ts',
      count: 1,
    });
  });

  it('does not follow symbolic links out of the workspace', async () => {
    ws.write('../outside/secret.ts', '');
    symlinkSync(ws.outside, path.join(ws.root, 'escape'));
    expect((await glob({ pattern: '**/secret.ts' })).output.count).toBe(0);
    expect((await glob({ pattern: '**/*.ts', path: 'escape' })).output.error).toMatch(
      /symbolic link .* outside the workspace/,
    );
  });

  it('refuses patterns that climb out or are absolute', async () => {
    expect((await glob({ pattern: '../outside/*' })).output.error).toMatch(/climbs out with "\.\."/);
    expect((await glob({ pattern: 'src/../../*' })).output.error).toMatch(/climbs out/);
    expect((await glob({ pattern: '/etc/*' })).output.error).toMatch(/is absolute/);
    expect((await glob({ pattern: '*', path: 'a.ts' })).output.error).toMatch(/is a file; path must be a folder/);
    expect((await glob({})).output.error).toMatch(/The input to glob is not valid: "pattern"/);
  });

  it(`returns at most ${GLOB_LIMITS.maxResults} paths, saying how many matched`, async () => {
    for (let i = 0; i < 1200; i += 1) ws.write(`many/f${String(i).padStart(4, '0')}.txt`, '');
    const { output } = await glob({ pattern: 'many/*.txt' });
    expect(String(output.files).split('\n')).toHaveLength(1000);
    expect(output).toMatchObject({ count: 1200, truncated: true });
    expect(output.note).toMatch(/Showing the first 1000 of 1200 matches\. Narrow the pattern or the path/);
  });
});
