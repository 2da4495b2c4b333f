import { mkdirSync, symlinkSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempWorkspace } from '../../testing/workspace-fixture';
import { resolveInWorkspace, type WorkspacePath } from './workspace-paths';

function refused(result: WorkspacePath): string {
  if (result.ok) throw new Error(`Expected a refusal, got ${result.absolute}`);
  return result.message;
}

describe('resolveInWorkspace', () => {
  let ws: ReturnType<typeof tempWorkspace>;
  beforeEach(() => {
    ws = tempWorkspace();
    ws.write('src/app.ts', 'app');
    ws.write('README.md', 'readme');
  });
  afterEach(() => ws.cleanup());

  it('resolves relative, nested, dotted and absolute-inside paths', async () => {
    expect(await resolveInWorkspace(ws.root, 'src/app.ts', { mustExist: true })).toEqual({
      ok: true,
      absolute: path.join(ws.root, 'src/app.ts'),
      relative: 'src/app.ts',
      root: ws.root,
      exists: true,
    });
    expect(await resolveInWorkspace(ws.root, './src/../README.md')).toMatchObject({ ok: true, relative: 'README.md' });
    expect(await resolveInWorkspace(ws.root, path.join(ws.root, 'src'))).toMatchObject({ ok: true, relative: 'src' });
    expect(await resolveInWorkspace(ws.root, '.')).toMatchObject({ ok: true, relative: '.', absolute: ws.root });
    expect(await resolveInWorkspace(ws.root, 'src/')).toMatchObject({ ok: true, relative: 'src' });
  });

  it('resolves a path that does not exist yet, unless it must exist', async () => {
    expect(await resolveInWorkspace(ws.root, 'new/dir/file.txt', { forWrite: true })).toMatchObject({
      ok: true,
      relative: 'new/dir/file.txt',
      exists: false,
      absolute: path.join(ws.root, 'new/dir/file.txt'),
    });
    expect(refused(await resolveInWorkspace(ws.root, 'missing.txt', { mustExist: true }))).toMatch(
      /does not exist in the workspace/,
    );
  });

  it('follows a symbolic link that stays inside the workspace, to its real target', async () => {
    symlinkSync(path.join(ws.root, 'src/app.ts'), path.join(ws.root, 'app-link.ts'));
    symlinkSync('src', path.join(ws.root, 'src-link'));
    expect(await resolveInWorkspace(ws.root, 'app-link.ts', { forWrite: true })).toMatchObject({
      ok: true,
      relative: 'src/app.ts',
    });
    expect(await resolveInWorkspace(ws.root, 'src-link/app.ts', { mustExist: true })).toMatchObject({
      ok: true,
      relative: 'src/app.ts',
    });
  });

  it('refuses ".." that climbs out', async () => {
    expect(refused(await resolveInWorkspace(ws.root, '../outside/x'))).toMatch(
      /climbs out of the workspace with "\.\."/,
    );
    expect(refused(await resolveInWorkspace(ws.root, 'src/../../x'))).toMatch(/climbs out/);
    expect(refused(await resolveInWorkspace(ws.root, '..'))).toMatch(/climbs out/);
  });

  it('refuses absolute paths outside the root, including ones that climb out after entering it', async () => {
    expect(refused(await resolveInWorkspace(ws.root, '/etc/passwd'))).toMatch(
      /"\/etc\/passwd" is outside the workspace/,
    );
    expect(refused(await resolveInWorkspace(ws.root, path.join(ws.outside, 'x')))).toMatch(/outside the workspace/);
    expect(refused(await resolveInWorkspace(ws.root, `${ws.root}/src/../../outside`))).toMatch(/outside the workspace/);
    expect(refused(await resolveInWorkspace(ws.root, `${ws.root}-sibling/file`))).toMatch(/outside the workspace/);
  });

  it('refuses a symbolic link file that points outside, for reading and for writing', async () => {
    ws.write('../outside/secret.txt', 'secret');
    symlinkSync(path.join(ws.outside, 'secret.txt'), path.join(ws.root, 'secret.txt'));
    expect(refused(await resolveInWorkspace(ws.root, 'secret.txt', { mustExist: true }))).toMatch(
      /"secret\.txt" is a symbolic link to .*outside.*secret\.txt, which is outside the workspace/,
    );
    expect(refused(await resolveInWorkspace(ws.root, 'secret.txt', { forWrite: true }))).toMatch(
      /outside the workspace/,
    );
  });

  it('refuses a path through a symbolic link folder that points outside, even to a file not there yet', async () => {
    symlinkSync(ws.outside, path.join(ws.root, 'escape'));
    expect(refused(await resolveInWorkspace(ws.root, 'escape/anything.txt', { forWrite: true }))).toMatch(
      /"escape" is a symbolic link to/,
    );
    expect(refused(await resolveInWorkspace(ws.root, 'escape'))).toMatch(/outside the workspace/);
    symlinkSync('../../outside', path.join(ws.root, 'src/up'));
    expect(refused(await resolveInWorkspace(ws.root, 'src/up/new/deep.txt', { forWrite: true }))).toMatch(
      /"src\/up" is a symbolic link/,
    );
  });

  it('refuses a dangling symbolic link, which a write would follow', async () => {
    symlinkSync(path.join(ws.outside, 'not-yet.txt'), path.join(ws.root, 'dangling.txt'));
    expect(refused(await resolveInWorkspace(ws.root, 'dangling.txt', { forWrite: true }))).toMatch(
      /symbolic link to ".*not-yet\.txt", which does not exist/,
    );
  });

  it('holds the root still for the call when the root itself is a symbolic link that moves', async () => {
    const other = path.join(ws.base, 'other');
    mkdirSync(other);
    const rootLink = path.join(ws.base, 'root-link');
    symlinkSync(ws.root, rootLink);
    const first = await resolveInWorkspace(rootLink, 'README.md', { mustExist: true });
    expect(first).toMatchObject({ ok: true, root: ws.root, absolute: path.join(ws.root, 'README.md') });
    // An absolute path under the link's name counts as inside.
    expect(await resolveInWorkspace(rootLink, path.join(rootLink, 'src/app.ts'), { mustExist: true })).toMatchObject({
      ok: true,
      relative: 'src/app.ts',
    });

    unlinkSync(rootLink);
    symlinkSync(other, rootLink);
    // The earlier resolution still names the old real root; a new call resolves against the new one.
    expect(first).toMatchObject({ root: ws.root });
    expect(refused(await resolveInWorkspace(rootLink, 'README.md', { mustExist: true }))).toMatch(/does not exist/);
    expect(await resolveInWorkspace(rootLink, 'x.txt', { forWrite: true })).toMatchObject({ ok: true, root: other });
    expect(refused(await resolveInWorkspace(path.join(ws.base, 'gone'), 'x'))).toMatch(
      /workspace folder .*gone cannot be opened \(ENOENT\)/,
    );
  });

  it('refuses NUL bytes, empty paths, files used as folders, and folders or the root as write targets', async () => {
    expect(refused(await resolveInWorkspace(ws.root, 'src/app.ts\0.png'))).toMatch(/NUL byte/);
    expect(refused(await resolveInWorkspace(ws.root, '  '))).toMatch(/empty/);
    expect(refused(await resolveInWorkspace(ws.root, 'README.md/child'))).toMatch(
      /runs through "README.md", which is not a folder/,
    );
    expect(refused(await resolveInWorkspace(ws.root, 'src', { forWrite: true }))).toMatch(
      /"src" is a folder, not a file/,
    );
    expect(refused(await resolveInWorkspace(ws.root, '.', { forWrite: true }))).toMatch(
      /workspace folder itself cannot be written/,
    );
  });
});
