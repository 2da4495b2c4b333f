import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ListedChangeSet } from '../../src-shared/checkpoint-model';
import { withRawDatabase } from '../storage/testing/raw-database';
import { startTestHost, tempDataDir, type TestHost } from '../testing/host-fixture';
import { waitFor } from '../testing/wait-for';

// Real git on a real workspace, and a host restarted on the same data directory.
const SLOW = { timeout: 120_000 } as const;

let t: TestHost;
let dataDir: { dir: string; cleanup: () => void };
let workspace: string;
beforeEach(async () => {
  dataDir = tempDataDir();
  t = await startTestHost({ dataDir: dataDir.dir });
  workspace = mkdtempSync(join(tmpdir(), 'cairn-links-'));
  mkdirSync(join(workspace, 'sub'));
  writeFileSync(join(workspace, 'sub', 'x.txt'), 'x\n');
  writeFileSync(join(workspace, 'notes.md'), 'alpha\n');
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: workspace,
      env: { PATH: process.env.PATH, HOME: workspace, GIT_CONFIG_NOSYSTEM: '1' },
    });
  git('init', '-q');
  git('add', '.');
  git('-c', 'user.name=T', '-c', 'user.email=t@t.invalid', 'commit', '-q', '-m', 'start');
});
afterEach(async () => {
  await t.close();
  rmSync(workspace, { recursive: true, force: true });
  dataDir.cleanup();
});

const shell = (command: string) => `/tool run_shell ${JSON.stringify({ command })}`;
const write = (path: string, content: string) => `/tool write_file ${JSON.stringify({ path, content })}`;
const files = (changeSet: ListedChangeSet | undefined) => changeSet?.files.map((file) => [file.path, file.change]);

/** Runs a turn and waits until its change set is closed (complete or absent), which it must always be. */
async function turn(sessionId: string, turnId: string, text: string): Promise<ListedChangeSet> {
  await t.call('turn.start', { sessionId, turnId, text });
  await waitFor(async () => (await t.call('turn.query', { sessionId, turnId })).turn.status === 'completed', {
    timeoutMs: 60_000,
    message: `turn ${turnId} to complete`,
  });
  return waitFor(
    async () =>
      (await t.call('changes.list', { sessionId, turnId })).changeSets.find(
        (set) => set.origin === 'turn' && (set.status === 'complete' || set.status === 'absent'),
      ),
    { timeoutMs: 60_000, message: `the change set of ${turnId} to be closed` },
  );
}

async function messageOf(sessionId: string, turnId: string): Promise<string> {
  const items = (await t.call('transcript.page', { sessionId, limit: 500 })).items;
  const message = items.find((item) => item.kind === 'user_message' && item.turnId === turnId);
  if (message === undefined) throw new Error(`no message of ${turnId}`);
  return message.itemId;
}

async function restart(): Promise<void> {
  await t.close();
  t = await startTestHost({ dataDir: dataDir.dir });
}

describe('checkpoints across symlinks and folders that change kind', () => {
  it(
    'a folder replaced by a symlink is recorded, later turns are recorded, revert and rewind work, also after a restart',
    SLOW,
    async () => {
      const { session } = await t.call('session.create', { workspacePath: workspace, permissionMode: 'full' });
      const sessionId = session.sessionId;
      const first = await turn(sessionId, 't1', write('a.md', 'A\n'));
      expect(first.status).toBe('complete');

      const moved = await turn(sessionId, 't2', shell('mv sub sub-real && ln -s sub-real sub'));
      expect(lstatSync(join(workspace, 'sub')).isSymbolicLink()).toBe(true);
      expect(moved.status).toBe('complete');
      expect(files(moved)).toEqual([
        ['sub', 'created'],
        ['sub-real/x.txt', 'created'],
        ['sub/x.txt', 'deleted'],
      ]);

      const later = await turn(sessionId, 't3', write('b.md', 'B\n'));
      expect(later).toMatchObject({ status: 'complete', note: null });
      expect(files(later)).toEqual([['b.md', 'created']]);

      // Reverting the earlier turn works (it used to answer internal_failure).
      expect((await t.call('changes.revert', { sessionId, changeSetId: first.changeSetId })).status).toBe('reverted');
      expect(existsSync(join(workspace, 'a.md'))).toBe(false);

      // Restarted, the workspace's checkpoints still work.
      await restart();
      const afterRestart = await turn(sessionId, 't4', write('c.md', 'C\n'));
      expect(afterRestart.status).toBe('complete');
      expect(files(afterRestart)).toEqual([['c.md', 'created']]);

      // Rewind to before the move: the folder is a folder again, the other files as before t2.
      const rewound = await t.call('session.rewind', {
        sessionId,
        atItemId: await messageOf(sessionId, 't2'),
        requestId: 'rw-links',
      });
      expect(rewound.status).toBe('rewound');
      expect(lstatSync(join(workspace, 'sub')).isDirectory()).toBe(true);
      expect(readFileSync(join(workspace, 'sub', 'x.txt'), 'utf8')).toBe('x\n');
      expect(existsSync(join(workspace, 'sub-real'))).toBe(false);
      expect(existsSync(join(workspace, 'b.md'))).toBe(false);
      expect(existsSync(join(workspace, 'c.md'))).toBe(false);
    },
  );

  it(
    'a symlink pointing outside the workspace is recorded as a link, and reverting removes only the link',
    SLOW,
    async () => {
      const outside = mkdtempSync(join(tmpdir(), 'cairn-links-outside-'));
      writeFileSync(join(outside, 'secret.txt'), 'outside\n');
      try {
        const { session } = await t.call('session.create', { workspacePath: workspace, permissionMode: 'full' });
        const sessionId = session.sessionId;
        const linked = await turn(sessionId, 't1', shell(`ln -s ${outside} out && rm -r sub && ln -s ${outside} sub`));
        expect(linked.status).toBe('complete');
        expect(files(linked)).toEqual([
          ['out', 'created'],
          ['sub', 'created'],
          ['sub/x.txt', 'deleted'],
        ]);
        const later = await turn(sessionId, 't2', write('out-of-reach.md', 'kept\n'));
        expect(later.status).toBe('complete');
        expect((await t.call('changes.revert', { sessionId, changeSetId: linked.changeSetId })).status).toBe(
          'reverted',
        );
        expect(existsSync(join(workspace, 'out'))).toBe(false);
        expect(readFileSync(join(workspace, 'sub', 'x.txt'), 'utf8')).toBe('x\n');
        expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('outside\n');
      } finally {
        rmSync(outside, { recursive: true, force: true });
      }
    },
  );

  it('a folder that becomes a file and a folder again is recorded each time and reverts exactly', SLOW, async () => {
    const { session } = await t.call('session.create', { workspacePath: workspace, permissionMode: 'full' });
    const sessionId = session.sessionId;
    const toFile = await turn(sessionId, 't1', shell('rm -r sub && echo file > sub'));
    expect(files(toFile)).toEqual([
      ['sub', 'created'],
      ['sub/x.txt', 'deleted'],
    ]);
    const toFolder = await turn(sessionId, 't2', shell('rm sub && mkdir sub && echo y > sub/y.txt'));
    expect(files(toFolder)).toEqual([
      ['sub', 'deleted'],
      ['sub/y.txt', 'created'],
    ]);
    expect((await t.call('changes.revert', { sessionId, changeSetId: toFolder.changeSetId })).status).toBe('reverted');
    expect(readFileSync(join(workspace, 'sub'), 'utf8')).toBe('file\n');
    expect((await t.call('changes.revert', { sessionId, changeSetId: toFile.changeSetId })).status).toBe('reverted');
    expect(readFileSync(join(workspace, 'sub', 'x.txt'), 'utf8')).toBe('x\n');
  });

  it(
    'a change set an earlier failure left open is closed, with a note, at the next start; rewind is not blocked',
    SLOW,
    async () => {
      const { session } = await t.call('session.create', { workspacePath: workspace, permissionMode: 'full' });
      const sessionId = session.sessionId;
      await turn(sessionId, 't1', write('a.md', 'A\n'));
      const moved = await turn(sessionId, 't2', shell('mv sub sub-real && ln -s sub-real sub'));
      await t.close();
      // As an earlier Cairn left it: the change set of the move open, its checkpoint after never written.
      withRawDatabase(dataDir.dir, (db) => {
        db.prepare(
          "UPDATE change_sets SET status = 'open', after_commit = NULL, completed_at = NULL WHERE change_set_id = ?",
        ).run(moved.changeSetId);
        db.prepare('DELETE FROM change_files WHERE change_set_id = ?').run(moved.changeSetId);
      });
      t = await startTestHost({ dataDir: dataDir.dir });
      const closed = await waitFor(
        async () =>
          (await t.call('changes.list', { sessionId, turnId: 't2' })).changeSets.find((set) => set.status !== 'open'),
        {
          timeoutMs: 60_000,
          message: 'the open change set to be closed',
        },
      );
      expect(closed.status).toBe('complete');
      expect(closed.note).toMatch(/Cairn stopped during this turn/);
      expect(files(closed)).toEqual([
        ['sub', 'created'],
        ['sub-real/x.txt', 'created'],
        ['sub/x.txt', 'deleted'],
      ]);
      const rewound = await t.call('session.rewind', {
        sessionId,
        atItemId: await messageOf(sessionId, 't1'),
        requestId: 'rw-open',
      });
      expect(rewound.status).toBe('rewound');
      expect(existsSync(join(workspace, 'a.md'))).toBe(false);
      expect(lstatSync(join(workspace, 'sub')).isDirectory()).toBe(true);
      expect(readFileSync(join(workspace, 'sub', 'x.txt'), 'utf8')).toBe('x\n');
    },
  );
});
