import {
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  symlinkSync,
  chmodSync,
  unlinkSync,
  mkdirSync,
} from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempWorkspace } from '../../testing/workspace-fixture';
import { openConfined, readConfined, writeConfined } from './workspace-files';
import { resolveInWorkspace, type ResolvedWorkspacePath } from './workspace-paths';

async function resolved(
  root: string,
  requested: string,
  options: { mustExist?: boolean; forWrite?: boolean },
): Promise<ResolvedWorkspacePath> {
  const result = await resolveInWorkspace(root, requested, options);
  if (!result.ok) throw new Error(result.message);
  return result;
}

describe('confined reads and writes', () => {
  let ws: ReturnType<typeof tempWorkspace>;
  beforeEach(() => {
    ws = tempWorkspace();
    ws.write('sub/secret.txt', 'inside');
    ws.write('a.txt', 'inside a');
    ws.write('../outside/secret.txt', 'OUTSIDE SECRET');
    ws.write('../outside/target.txt', 'outside target');
  });
  afterEach(() => ws.cleanup());

  it('reads a file inside the workspace', async () => {
    expect(await readConfined(await resolved(ws.root, 'sub/secret.txt', { mustExist: true }), 1000)).toEqual({
      ok: true,
      bytes: Buffer.from('inside'),
    });
    const opened = await openConfined(await resolved(ws.root, 'sub', { mustExist: true }));
    expect(opened.ok && opened.stats.isDirectory()).toBe(true);
    if (opened.ok) await opened.handle.close();
  });

  it('detects a folder swapped for a link out of the workspace between resolution and open', async () => {
    const target = await resolved(ws.root, 'sub/secret.txt', { mustExist: true });
    renameSync(path.join(ws.root, 'sub'), path.join(ws.root, 'sub-moved'));
    symlinkSync(ws.outside, path.join(ws.root, 'sub'));
    const result = await readConfined(target, 1000);
    expect(result).toEqual({
      ok: false,
      message: expect.stringMatching(/"sub\/secret\.txt" changed while it was being opened/),
    });
  });

  it('detects a file swapped for a link out of the workspace between resolution and open', async () => {
    const target = await resolved(ws.root, 'a.txt', { mustExist: true });
    unlinkSync(path.join(ws.root, 'a.txt'));
    symlinkSync(path.join(ws.outside, 'secret.txt'), path.join(ws.root, 'a.txt'));
    expect(await readConfined(target, 1000)).toEqual({
      ok: false,
      message: expect.stringMatching(/"a\.txt" changed while it was being opened/),
    });
  });

  it('reads whatever file is at the path when opened, if it is inside (a replacement inside the workspace is fine)', async () => {
    const target = await resolved(ws.root, 'a.txt', { mustExist: true });
    renameSync(path.join(ws.root, 'sub/secret.txt'), path.join(ws.root, 'a.txt'));
    // Same path, same folder, but a different file than the one resolved: still inside, so it reads.
    expect(await readConfined(target, 1000)).toEqual({ ok: true, bytes: Buffer.from('inside') });
  });

  it('writes a new file, creating its folders, atomically and without leaving temp files', async () => {
    const target = await resolved(ws.root, 'new/deep/file.txt', { forWrite: true });
    expect(await writeConfined(target, 'hello\n')).toEqual({ ok: true, created: true, bytes: 6 });
    expect(readFileSync(path.join(ws.root, 'new/deep/file.txt'), 'utf8')).toBe('hello\n');
    expect(readdirSync(path.join(ws.root, 'new/deep'))).toEqual(['file.txt']);
  });

  it('overwrites an existing file and keeps its mode', async () => {
    chmodSync(path.join(ws.root, 'a.txt'), 0o750);
    const target = await resolved(ws.root, 'a.txt', { forWrite: true });
    expect(await writeConfined(target, 'changed')).toEqual({ ok: true, created: false, bytes: 7 });
    expect(readFileSync(path.join(ws.root, 'a.txt'), 'utf8')).toBe('changed');
    expect(statSync(path.join(ws.root, 'a.txt')).mode & 0o777).toBe(0o750);
    expect(readdirSync(ws.root).sort()).toEqual(['a.txt', 'sub']);
  });

  it('writes through an in-workspace link to its target, leaving the link in place', async () => {
    symlinkSync('a.txt', path.join(ws.root, 'link.txt'));
    const target = await resolved(ws.root, 'link.txt', { forWrite: true });
    expect(await writeConfined(target, 'via link')).toMatchObject({ ok: true, created: false });
    expect(readFileSync(path.join(ws.root, 'a.txt'), 'utf8')).toBe('via link');
  });

  it('refuses to write when the folder is swapped for a link out of the workspace after resolution', async () => {
    const target = await resolved(ws.root, 'sub/new.txt', { forWrite: true });
    renameSync(path.join(ws.root, 'sub'), path.join(ws.root, 'sub-moved'));
    symlinkSync(ws.outside, path.join(ws.root, 'sub'));
    expect(await writeConfined(target, 'escaped?')).toEqual({
      ok: false,
      message: expect.stringMatching(/"sub\/new\.txt" changed while it was being written/),
    });
    expect(existsSync(path.join(ws.outside, 'new.txt'))).toBe(false);
    expect(readdirSync(ws.outside).sort()).toEqual(['secret.txt', 'target.txt']);
  });

  it('refuses to write when a not-yet-existing folder is planted as a link after resolution', async () => {
    const target = await resolved(ws.root, 'fresh/new.txt', { forWrite: true });
    symlinkSync(ws.outside, path.join(ws.root, 'fresh'));
    expect(await writeConfined(target, 'escaped?')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/changed while it was being written/),
    });
    expect(existsSync(path.join(ws.outside, 'new.txt'))).toBe(false);
  });

  it('refuses to write when the file is swapped for a link out of the workspace after resolution', async () => {
    const target = await resolved(ws.root, 'a.txt', { forWrite: true });
    unlinkSync(path.join(ws.root, 'a.txt'));
    symlinkSync(path.join(ws.outside, 'target.txt'), path.join(ws.root, 'a.txt'));
    expect(await writeConfined(target, 'overwritten?')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/changed while it was being written/),
    });
    expect(readFileSync(path.join(ws.outside, 'target.txt'), 'utf8')).toBe('outside target');
  });

  it('refuses to write over a folder that appeared after resolution', async () => {
    const target = await resolved(ws.root, 'later', { forWrite: true });
    mkdirSync(path.join(ws.root, 'later'));
    expect(await writeConfined(target, 'x')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/not a regular file/),
    });
  });
});
