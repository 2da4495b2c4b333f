import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PermissionMode } from '../../../src-shared/model';
import { outcome, tempWorkspace, toolContext } from '../../testing/workspace-fixture';
import { createEditFileTool, previewChange } from './edit-file-tool';

describe('edit_file', () => {
  let ws: ReturnType<typeof tempWorkspace>;
  const edit = async (input: unknown) =>
    outcome(await createEditFileTool({ root: ws.root }).execute(input, toolContext()));
  const content = () => readFileSync(path.join(ws.root, 'src/app.ts'), 'utf8');
  beforeEach(() => {
    ws = tempWorkspace();
    ws.write('src/app.ts', 'const a = 1;\nconst b = 2;\nlog(a);\nlog(a);\n');
  });
  afterEach(() => ws.cleanup());

  it('replaces the one occurrence of the search text, literally', async () => {
    expect(createEditFileTool({ root: ws.root }).readOnly).toBe(false);
    expect(await edit({ path: 'src/app.ts', search: 'const b = 2;', replace: 'const b = "$&$1";' })).toEqual({
      isError: false,
      output: { path: 'src/app.ts', replaced: 1, bytes: 47, added: 1, removed: 1 },
    });
    expect(content()).toBe('const a = 1;\nconst b = "$&$1";\nlog(a);\nlog(a);\n');
  });

  it('previews the edit as a unified diff without changing the file', async () => {
    const preview = await previewChange(ws.root, {
      path: 'src/app.ts',
      search: 'const a = 1;',
      replace: 'const a = 10;',
    });
    expect(preview).toMatchObject({ kind: 'diff', path: 'src/app.ts' });
    expect(preview.kind === 'diff' && preview.diff).toContain(
      '--- a/src/app.ts\n+++ b/src/app.ts\n@@ -1,4 +1,4 @@\n-const a = 1;\n+const a = 10;\n const b = 2;\n',
    );
    expect(content()).toBe('const a = 1;\nconst b = 2;\nlog(a);\nlog(a);\n');
    expect(
      await createEditFileTool({ root: ws.root }).preview?.({ path: 'src/app.ts', search: 'nope', replace: '' }),
    ).toMatchObject({ kind: 'invalid' });
  });

  it('refuses a search text that is absent, saying it must match exactly', async () => {
    const { output, isError } = await edit({ path: 'src/app.ts', search: 'const  a = 1;', replace: 'x' });
    expect(isError).toBe(true);
    expect(output.error).toBe(
      'The search text was not found in "src/app.ts". It must match exactly, including whitespace and indentation; read the file again to copy the current text.',
    );
    expect(await previewChange(ws.root, { path: 'src/app.ts', search: 'const  a = 1;', replace: 'x' })).toEqual({
      kind: 'invalid',
      message: output.error,
    });
  });

  it('refuses a search text that appears more than once, saying how many times', async () => {
    expect((await edit({ path: 'src/app.ts', search: 'log(a);', replace: 'log(b);' })).output.error).toBe(
      'The search text appears 2 times in "src/app.ts"; it must appear exactly once. Include more surrounding lines so it matches one place only.',
    );
    expect(content()).toContain('log(a);\nlog(a);');
  });

  it('hints at CRLF line endings', async () => {
    ws.write('win.txt', 'one\r\ntwo\r\n');
    expect((await edit({ path: 'win.txt', search: 'one\ntwo', replace: 'x' })).output.error).toMatch(
      /Windows line endings \(CRLF\)/,
    );
  });

  it('refuses missing files, binary files, escapes and bad input', async () => {
    expect((await edit({ path: 'nope.ts', search: 'a', replace: 'b' })).output.error).toMatch(
      /does not exist in the workspace/,
    );
    writeFileSync(path.join(ws.root, 'bin.dat'), Buffer.from([1, 0, 2]));
    expect((await edit({ path: 'bin.dat', search: 'a', replace: 'b' })).output.error).toMatch(/binary file/);
    ws.write('../outside/t.txt', 'a');
    symlinkSync(path.join(ws.outside, 't.txt'), path.join(ws.root, 't.txt'));
    expect((await edit({ path: 't.txt', search: 'a', replace: 'b' })).output.error).toMatch(/outside the workspace/);
    expect(readFileSync(path.join(ws.outside, 't.txt'), 'utf8')).toBe('a');
    expect((await edit({ path: 'src/app.ts', search: '', replace: 'b' })).output.error).toMatch(
      /"search": must not be empty/,
    );
    expect((await edit({ path: 'src/app.ts', search: 'a', replace: 'a' })).output.error).toMatch(
      /search and replace are the same text/,
    );
    expect((await edit({ path: 'src/app.ts', search: 'a' })).output.error).toMatch(/"replace"/);
  });

  it('edits no file that makes code run later in Auto, through a link too; in Full it does', async () => {
    ws.write('.claude/settings.json', '{"hooks":{}}\n');
    symlinkSync('.claude/settings.json', path.join(ws.root, 'settings-link.json'));
    const inMode = (mode: PermissionMode, file: string) =>
      createEditFileTool({ root: ws.root, modeOf: () => mode }).execute(
        { path: file, search: '{}', replace: '{"PostToolUse":[]}' },
        toolContext(),
      );
    for (const file of ['.claude/settings.json', 'settings-link.json', './src/../.claude/settings.json'])
      expect(outcome(await inMode('auto', file)).output.error).toMatch(
        /is read-only for agents: it makes code run later/,
      );
    expect(readFileSync(path.join(ws.root, '.claude/settings.json'), 'utf8')).toBe('{"hooks":{}}\n');
    expect(outcome(await inMode('full', '.claude/settings.json')).isError).toBe(false);
    expect(readFileSync(path.join(ws.root, '.claude/settings.json'), 'utf8')).toBe('{"hooks":{"PostToolUse":[]}}\n');
  });
});
