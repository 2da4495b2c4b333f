import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GitError, ShadowRepo } from './shadow-git';
import { gitAvailability } from './shadow-git-setup';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const temp = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};

describe('the shadow repository', { timeout: 30_000 }, () => {
  it("never copies Cairn's data directory when the workspace holds it (a home folder), and drops it if an older copy did", async () => {
    const workspace = temp('cairn-shadow-home-');
    const dataDir = join(workspace, '.config', 'cairn [data]');
    const gitDir = join(dataDir, 'checkpoints', 'w.git');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'cairn.db'), 'live database');
    writeFileSync(join(workspace, 'notes.txt'), 'mine\n');
    // As an older Cairn did: the data directory copied with the rest.
    const older = await new ShadowRepo(gitDir, workspace).snapshot();
    expect((await new ShadowRepo(gitDir, workspace).numstat(null, older.tree)).map((entry) => entry.path)).toContain(
      '.config/cairn [data]/cairn.db',
    );

    const repo = new ShadowRepo(gitDir, workspace, undefined, [dataDir]);
    const first = await repo.snapshot();
    writeFileSync(join(dataDir, 'cairn.db'), 'the database, written since');
    const second = await repo.snapshot();
    expect((await repo.numstat(null, first.tree)).map((entry) => entry.path)).toEqual(['notes.txt']);
    expect(second.tree).toBe(first.tree);
  });

  it('snapshots incrementally: an unchanged workspace keeps its tree, a same-size edit with a new mtime is seen', async () => {
    const workspace = temp('cairn-shadow-ws-');
    writeFileSync(join(workspace, 'a.txt'), 'one\n');
    const repo = new ShadowRepo(join(temp('cairn-shadow-data-'), 'w.git'), workspace);
    const first = await repo.snapshot();
    expect((await repo.snapshot()).tree).toBe(first.tree);
    writeFileSync(join(workspace, 'a.txt'), 'two\n');
    utimesSync(join(workspace, 'a.txt'), new Date(Date.now() + 5000), new Date(Date.now() + 5000));
    const second = await repo.snapshot();
    expect(second.tree).not.toBe(first.tree);
    expect(await repo.numstat(first.tree, second.tree)).toEqual([
      { path: 'a.txt', change: 'modified', added: 1, removed: 1 },
    ]);
  });

  it('runs git with glibc keeping its heap (the first snapshot of a big workspace is otherwise spent in brk calls)', async () => {
    const workspace = temp('cairn-shadow-ws-');
    const repo = new ShadowRepo(join(temp('cairn-shadow-data-'), 'w.git'), workspace);
    await repo.snapshot();
    const env = (await repo.git(['-c', 'alias.show-env=!env', 'show-env'])).toString('utf8');
    expect(env).toMatch(/^GLIBC_TUNABLES=.*glibc\.malloc\.trim_threshold=\d+/m);
  });

  it('leaves out ignored files and files over the size cap, naming the latter', async () => {
    const workspace = temp('cairn-shadow-ws-');
    writeFileSync(join(workspace, '.gitignore'), '*.log\n');
    writeFileSync(join(workspace, 'debug.log'), 'noise\n');
    writeFileSync(join(workspace, 'big.bin'), Buffer.alloc(2000));
    writeFileSync(join(workspace, 'small.txt'), 'ok\n');
    const repo = new ShadowRepo(join(temp('cairn-shadow-data-'), 'w.git'), workspace, 1000);
    const snapshot = await repo.snapshot();
    expect(snapshot.tooLarge).toEqual(['big.bin']);
    expect((await repo.numstat(null, snapshot.tree)).map((entry) => entry.path)).toEqual(['.gitignore', 'small.txt']);
  });

  it('keeps a file git refuses out of the snapshot, named with git’s reason, and takes every other file', async () => {
    const workspace = temp('cairn-shadow-ws-');
    for (const name of ['a.txt', 'b.txt', 'locked.txt', 'c.txt', 'd.txt'])
      writeFileSync(join(workspace, name), `${name}\n`);
    // As git answers for a file it may not read (root reads every file, so the refusal is played).
    class Refusing extends ShadowRepo {
      override git(
        args: readonly string[],
        options: { input?: string | Buffer; okCodes?: readonly number[] } = {},
      ): Promise<Buffer> {
        if (args[0] === 'update-index' && args.includes('--add') && String(options.input).includes('locked.txt')) {
          return Promise.reject(
            new GitError('git update-index failed (128): error: open("locked.txt"): Permission denied'),
          );
        }
        return super.git(args, options);
      }
    }
    const repo = new Refusing(join(temp('cairn-shadow-data-'), 'w.git'), workspace);
    const snapshot = await repo.snapshot();
    expect(snapshot.unreadable).toEqual([{ path: 'locked.txt', reason: expect.stringContaining('Permission denied') }]);
    expect((await repo.numstat(null, snapshot.tree)).map((entry) => entry.path)).toEqual([
      'a.txt',
      'b.txt',
      'c.txt',
      'd.txt',
    ]);
  });

  it('says clearly when git cannot be run', async () => {
    const missing = await gitAvailability({ PATH: temp('cairn-no-git-') });
    expect(missing).toMatchObject({
      available: false,
      reason: expect.stringMatching(/File checkpoints need git.*Install git/),
    });
    expect(await gitAvailability()).toEqual({ available: true });
  });
});
