import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestHost, tempDataDir, type TestHost } from '../testing/host-fixture';
import { waitFor } from '../testing/wait-for';

// Real git on a real repository; on a loaded machine a few git calls take seconds.
const SLOW = { timeout: 90_000 } as const;
const IDENTITY = {
  GIT_AUTHOR_NAME: 'Person',
  GIT_AUTHOR_EMAIL: 'person@example.invalid',
  GIT_COMMITTER_NAME: 'Person',
  GIT_COMMITTER_EMAIL: 'person@example.invalid',
};

let t: TestHost;
let repo: string;
beforeEach(async () => {
  t = await startTestHost();
  repo = realpathSync(mkdtempSync(join(tmpdir(), 'cairn-worktree-repo-')));
  git('init', '--quiet', '--initial-branch=main');
  writeFileSync(join(repo, 'notes.md'), 'alpha\nbeta\n');
  writeFileSync(join(repo, 'other.txt'), 'other\n');
  git('add', '--all');
  git('commit', '--quiet', '-m', 'start');
});
afterEach(async () => {
  await t.close();
  rmSync(repo, { recursive: true, force: true });
});

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: repo, env: { ...process.env, ...IDENTITY }, encoding: 'utf8' }).trim();
}

const read = (folder: string, file: string) => readFileSync(join(folder, file), 'utf8');
const tools = (...calls: [string, unknown][]) => `/tools ${JSON.stringify(calls)}`;

async function worktreeSession(title: string): Promise<{ sessionId: string; folder: string }> {
  const { session } = await t.call('session.create', {
    title,
    workspacePath: repo,
    permissionMode: 'full',
    ownWorktree: true,
  });
  if (session.workspacePath === null) throw new Error('the session has no workspace');
  return { sessionId: session.sessionId, folder: session.workspacePath };
}

/** Runs a scripted turn that writes `content` to `file` in the session's workspace, and waits for it to end. */
async function writeInTurn(sessionId: string, turnId: string, file: string, content: string): Promise<void> {
  await t.call('turn.start', { sessionId, turnId, text: tools(['write_file', { path: file, content }]) });
  await waitFor(async () => (await t.call('turn.query', { sessionId, turnId })).turn.status === 'completed', {
    timeoutMs: 60_000,
    message: `turn ${turnId} to complete`,
  });
}

/** Everything a failed merge must leave as it was in the person's repository. */
function repoState() {
  return {
    head: git('rev-parse', 'HEAD'),
    status: git('status', '--porcelain'),
    notes: read(repo, 'notes.md'),
    branches: git('branch', '--list', 'main'),
  };
}

describe('isolated worktrees', () => {
  it(
    'gives a session its own worktree on a cairn/ branch under the data directory, which becomes its workspace',
    SLOW,
    async () => {
      const { sessionId, folder } = await worktreeSession('Fix the login page!');
      const { status } = await t.call('worktree.status', { sessionId });
      expect(status?.worktree).toMatchObject({
        sessionId,
        repoRoot: repo,
        baseBranch: 'main',
        baseCommit: git('rev-parse', 'HEAD'),
        path: folder,
        state: 'active',
      });
      expect(status?.worktree.branch).toMatch(/^cairn\/fix-the-login-page-[0-9a-f]{4}$/);
      expect(folder.startsWith(join(t.dataDir, 'worktrees'))).toBe(true);
      expect(git('worktree', 'list')).toContain(folder);
      expect(git('rev-parse', '--abbrev-ref', 'HEAD')).toBe('main');
      expect(status).toMatchObject({ ahead: 0, behind: 0, files: [], present: true });
      expect((await t.call('worktree.open', { sessionId })).path).toBe(folder);
      // A retry answers with the same worktree.
      expect((await t.call('worktree.create', { sessionId })).worktree.path).toBe(folder);
      expect(t.events.some((event) => event.kind === 'worktree.changed' && event.sessionId === sessionId)).toBe(true);
    },
  );

  it(
    'isolates two sessions editing one file; the first merges back by fast-forward, the second is refused with the conflict named and the repository untouched',
    SLOW,
    async () => {
      const first = await worktreeSession('First');
      const second = await worktreeSession('Second');
      await writeInTurn(first.sessionId, 't1', 'notes.md', 'alpha\nfirst\n');
      await writeInTurn(second.sessionId, 't2', 'notes.md', 'alpha\nsecond\n');
      expect(read(first.folder, 'notes.md')).toBe('alpha\nfirst\n');
      expect(read(second.folder, 'notes.md')).toBe('alpha\nsecond\n');
      expect(read(repo, 'notes.md')).toBe('alpha\nbeta\n');

      const diff = await t.call('worktree.diff', { sessionId: first.sessionId });
      expect(diff.files.map(({ path, change }) => ({ path, change }))).toEqual([
        { path: 'notes.md', change: 'modified' },
      ]);
      expect(diff.files[0]?.diff).toContain('-beta\n+first');
      expect((await t.call('worktree.status', { sessionId: first.sessionId })).status?.files).toEqual([
        { path: 'notes.md', change: 'modified' },
      ]);

      const merged = await t.call('worktree.merge', { sessionId: first.sessionId });
      expect(merged).toMatchObject({ status: 'merged', mode: 'fast_forward' });
      expect(read(repo, 'notes.md')).toBe('alpha\nfirst\n');
      expect(git('status', '--porcelain')).toBe('');
      expect(git('log', '-1', '--format=%s')).toContain('First');
      expect(existsSync(first.folder)).toBe(false);
      expect((await t.call('session.get', { sessionId: first.sessionId })).session.workspacePath).toBe(repo);

      const before = repoState();
      const refused = await t.call('worktree.merge', { sessionId: second.sessionId });
      expect(refused).toEqual({ status: 'conflict', reason: 'merge', files: ['notes.md'] });
      expect(repoState()).toEqual(before);
      expect((await t.call('worktree.status', { sessionId: second.sessionId })).status).toMatchObject({
        worktree: { state: 'active' },
        ahead: 1,
        behind: 1,
      });

      // Bringing the base into the worktree leaves the conflict there to resolve.
      expect(await t.call('worktree.update', { sessionId: second.sessionId })).toEqual({
        status: 'conflict',
        files: ['notes.md'],
      });
      expect(read(second.folder, 'notes.md')).toContain('<<<<<<<');
      expect(repoState()).toEqual(before);
    },
  );

  it(
    'names a branch made before the title after the title once it arrives, unless the branch has commits of its own',
    SLOW,
    async () => {
      const untitled = async () => {
        const { session } = await t.call('session.create', {
          workspacePath: repo,
          permissionMode: 'full',
          ownWorktree: true,
        });
        const branch =
          (await t.call('worktree.status', { sessionId: session.sessionId })).status?.worktree.branch ?? '';
        expect(branch).toMatch(/^cairn\/new-session-[0-9a-f]{4}$/);
        return { sessionId: session.sessionId, folder: session.workspacePath ?? '', branch };
      };
      const fresh = await untitled();
      await t.call('turn.start', { sessionId: fresh.sessionId, turnId: 't1', text: 'Plan the spring release' });
      const renamed = await waitFor(
        async () => {
          const branch = (await t.call('worktree.status', { sessionId: fresh.sessionId })).status?.worktree.branch;
          return branch !== fresh.branch ? branch : null;
        },
        { timeoutMs: 60_000, message: 'the branch to take the title' },
      );
      expect(renamed).toBe(`cairn/plan-the-spring-release-${fresh.branch.slice(-4)}`);
      expect(git('branch', '--list', 'cairn/*')).toContain(renamed);
      expect(git('branch', '--list', fresh.branch)).toBe('');
      expect(
        execFileSync('git', ['symbolic-ref', '--short', 'HEAD'], { cwd: fresh.folder, encoding: 'utf8' }).trim(),
      ).toBe(renamed);

      // A branch with a commit of its own keeps the name it has (someone may have used it already).
      const worked = await untitled();
      writeFileSync(join(worked.folder, 'mine.txt'), 'mine\n');
      execFileSync('git', ['add', 'mine.txt'], { cwd: worked.folder });
      execFileSync('git', ['commit', '--quiet', '-m', 'mine'], {
        cwd: worked.folder,
        env: { ...process.env, ...IDENTITY },
      });
      await t.call('turn.start', { sessionId: worked.sessionId, turnId: 't1', text: 'Tidy the notes' });
      await t.waitForTurn(worked.sessionId, 't1', ['completed']);
      expect((await t.call('session.get', { sessionId: worked.sessionId })).session.title).toBe('Tidy the notes');
      // worktree.status queues behind any rename under way, so it answers after it.
      expect((await t.call('worktree.status', { sessionId: worked.sessionId })).status?.worktree.branch).toBe(
        worked.branch,
      );
    },
  );

  it('makes a merge commit when the base branch moved on without touching the same files', SLOW, async () => {
    const { sessionId, folder } = await worktreeSession('Docs');
    await writeInTurn(sessionId, 't1', 'docs.md', 'docs\n');
    writeFileSync(join(repo, 'other.txt'), 'changed by the person\n');
    git('commit', '--quiet', '-am', 'person');
    const merged = await t.call('worktree.merge', { sessionId });
    expect(merged).toMatchObject({ status: 'merged', mode: 'merge_commit' });
    expect(git('rev-parse', 'HEAD')).toBe(merged.status === 'merged' ? merged.commit : '');
    expect(git('log', '-1', '--format=%P').split(' ')).toHaveLength(2);
    expect(read(repo, 'docs.md')).toBe('docs\n');
    expect(read(repo, 'other.txt')).toBe('changed by the person\n');
    expect(git('status', '--porcelain')).toBe('');
    expect(existsSync(folder)).toBe(false);
  });

  it(
    'refuses to merge over uncommitted changes to the same files in the base checkout, writing nothing',
    SLOW,
    async () => {
      const { sessionId } = await worktreeSession('Edit');
      await writeInTurn(sessionId, 't1', 'notes.md', 'from the session\n');
      writeFileSync(join(repo, 'notes.md'), 'the person is editing\n');
      const before = repoState();
      expect(await t.call('worktree.merge', { sessionId })).toEqual({
        status: 'conflict',
        reason: 'uncommitted',
        files: ['notes.md'],
      });
      expect(repoState()).toEqual(before);
    },
  );

  it(
    'refuses to discard while a turn runs, then removes the worktree and its branch; a retry is done',
    SLOW,
    async () => {
      const { sessionId, folder } = await worktreeSession('Held');
      const { status } = await t.call('worktree.status', { sessionId });
      await t.call('turn.start', { sessionId, turnId: 'held', text: '/hold' });
      await t.waitForTurn(sessionId, 'held', ['running']);
      const refused = await t.invoke('worktree.discard', { sessionId });
      expect(refused.ok ? null : refused.error.code).toBe('session_busy');
      const merge = await t.invoke('worktree.merge', { sessionId });
      expect(merge.ok ? null : merge.error.code).toBe('session_busy');
      expect(existsSync(folder)).toBe(true);
      await t.call('turn.stop', { sessionId, turnId: 'held' });
      await t.waitForTurn(sessionId, 'held', ['cancelled']);
      expect((await t.call('worktree.discard', { sessionId })).worktree.state).toBe('discarded');
      expect(existsSync(folder)).toBe(false);
      expect(git('branch', '--list', status?.worktree.branch ?? '')).toBe('');
      expect((await t.call('worktree.discard', { sessionId })).worktree.state).toBe('discarded');
      expect((await t.call('session.get', { sessionId })).session.workspacePath).toBe(repo);
    },
  );

  it(
    'after Discard, the worktree’s change sets say it is gone and offer no revert: revert and rewind answer operation_unavailable, changing nothing',
    SLOW,
    async () => {
      const { sessionId } = await worktreeSession('Gone');
      await writeInTurn(sessionId, 't1', 'notes.md', 'alpha\nmine\n');
      await waitFor(
        async () => (await t.call('changes.list', { sessionId })).changeSets.some((set) => set.status === 'complete'),
        {
          timeoutMs: 60_000,
          message: 'the change set of t1',
        },
      );
      const before = (await t.call('changes.list', { sessionId })).changeSets;
      expect(before.map((set) => set.workspaceGone)).toEqual([null]);
      // A file tool's write in a worktree (which lies under the data directory) is recorded like any other.
      expect(before[0]?.files.map((file) => file.path)).toEqual(['notes.md']);
      const { status } = await t.call('worktree.status', { sessionId });
      await t.call('worktree.discard', { sessionId });

      const listed = (await t.call('changes.list', { sessionId })).changeSets;
      expect(listed).toHaveLength(1);
      expect(listed[0]?.workspaceGone).toContain(`${status?.worktree.branch ?? ''}) was discarded`);
      // The diff is still read from the checkpoints, though the folder is gone.
      const diff = await t.call('changes.diff', {
        sessionId,
        changeSetId: listed[0]?.changeSetId ?? '',
        path: 'notes.md',
      });
      expect(diff.diff).toContain('+mine');

      const revert = await t.invoke('changes.revert', { sessionId, changeSetId: listed[0]?.changeSetId ?? '' });
      expect(revert.ok ? null : revert.error).toMatchObject({
        code: 'operation_unavailable',
        message: expect.stringContaining('discarded') as string,
      });
      const revertFile = await t.invoke('changes.revert', {
        sessionId,
        changeSetId: listed[0]?.changeSetId ?? '',
        path: 'notes.md',
      });
      expect(revertFile.ok ? null : revertFile.error.code).toBe('operation_unavailable');

      // The session works in the repository again; a later turn there does not hide why the rewind cannot go back.
      await writeInTurn(sessionId, 't2', 'other.txt', 'changed in the repository\n');
      await waitFor(
        async () =>
          (await t.call('changes.list', { sessionId, turnId: 't2' })).changeSets.some(
            (set) => set.status === 'complete',
          ),
        {
          timeoutMs: 60_000,
          message: 'the change set of t2',
        },
      );
      const sessionsBefore = (await t.call('session.list', {})).sessions.length;
      const message = (await t.call('transcript.page', { sessionId, limit: 500 })).items.find(
        (item) => item.kind === 'user_message' && item.turnId === 't1',
      );
      const rewind = await t.invoke('session.rewind', {
        sessionId,
        atItemId: message?.itemId ?? '',
        requestId: 'rw-gone',
      });
      expect(rewind.ok ? null : rewind.error).toMatchObject({
        code: 'operation_unavailable',
        message: expect.stringContaining('discarded') as string,
      });
      expect((await t.call('session.list', {})).sessions).toHaveLength(sessionsBefore);
      expect(read(repo, 'notes.md')).toBe('alpha\nbeta\n');
      expect(read(repo, 'other.txt')).toBe('changed in the repository\n');
    },
  );

  it(
    'says why a folder outside a git repository cannot have a worktree, and leaves no session behind',
    SLOW,
    async () => {
      const plain = mkdtempSync(join(tmpdir(), 'cairn-plain-'));
      try {
        expect(await t.call('worktree.check', { workspacePath: plain })).toMatchObject({ available: false });
        expect(await t.call('worktree.check', { workspacePath: repo })).toEqual({
          available: true,
          reason: null,
          baseBranch: 'main',
        });
        const refused = await t.invoke('session.create', { workspacePath: plain, ownWorktree: true });
        expect(refused.ok ? null : refused.error).toMatchObject({
          code: 'operation_unavailable',
          message: expect.stringContaining('not inside a git repository'),
        });
        expect(
          (await t.call('session.list', {})).sessions.filter((session) => session.workspacePath === plain),
        ).toEqual([]);
      } finally {
        rmSync(plain, { recursive: true, force: true });
      }
    },
  );
});

describe('subagents in worktrees', () => {
  it(
    'gives a spawned child a worktree off its parent’s branch; merging the child lands in the parent’s worktree, not in the repository',
    SLOW,
    async () => {
      const parent = await worktreeSession('Parent');
      const task = tools(['write_file', { path: 'child.txt', content: 'from the child\n' }]);
      await t.call('turn.start', {
        sessionId: parent.sessionId,
        turnId: 'p1',
        text: `/tool spawn_agent ${JSON.stringify({ agent: 'worker', task, wait: true, worktree: true })}`,
      });
      await waitFor(
        async () =>
          (await t.call('turn.query', { sessionId: parent.sessionId, turnId: 'p1' })).turn.status === 'completed',
        {
          timeoutMs: 60_000,
          message: 'the parent turn',
        },
      );
      const { tree } = await t.call('agent.tree', { sessionId: parent.sessionId });
      const childId = tree.children[0]?.childSessionId ?? '';
      const child = (await t.call('worktree.status', { sessionId: childId })).status;
      const parentBranch = (await t.call('worktree.status', { sessionId: parent.sessionId })).status?.worktree.branch;
      expect(child?.worktree).toMatchObject({ repoRoot: parent.folder, baseBranch: parentBranch, state: 'active' });
      expect(existsSync(join(parent.folder, 'child.txt'))).toBe(false);

      expect(await t.call('worktree.merge', { sessionId: childId })).toMatchObject({
        status: 'merged',
        mode: 'fast_forward',
      });
      expect(read(parent.folder, 'child.txt')).toBe('from the child\n');
      expect(existsSync(join(repo, 'child.txt'))).toBe(false);
      expect(await t.call('worktree.merge', { sessionId: parent.sessionId })).toMatchObject({
        status: 'merged',
        mode: 'fast_forward',
      });
      expect(read(repo, 'child.txt')).toBe('from the child\n');
    },
  );
});

describe('worktrees left behind', () => {
  it(
    'finds, after a restart, a worktree whose session is gone, one whose folder vanished and a folder no record names; each can be discarded',
    SLOW,
    async () => {
      const data = tempDataDir();
      let host = await startTestHost({ dataDir: data.dir });
      try {
        const create = async (title: string) =>
          (await host.call('session.create', { title, workspacePath: repo, ownWorktree: true })).session;
        const orphan = await create('Orphan');
        const vanished = await create('Vanished');
        await host.call('session.remove', { sessionId: orphan.sessionId });
        await host.close();
        rmSync(vanished.workspacePath ?? '', { recursive: true, force: true });
        // A crash between `git worktree add` and the record leaves a folder no record names.
        const stray = join(data.dir, 'worktrees', 'stray');
        git('worktree', 'add', '--quiet', '-b', 'cairn/stray', stray);

        host = await startTestHost({ dataDir: data.dir });
        const { leftovers } = await host.call('worktree.leftovers', {});
        expect(leftovers.map(({ path, reason }) => ({ path, reason }))).toEqual([
          { path: orphan.workspacePath, reason: 'no_session' },
          { path: vanished.workspacePath, reason: 'folder_missing' },
          { path: stray, reason: 'unknown_folder' },
        ]);
        for (const leftover of leftovers) await host.call('worktree.discardLeftover', { path: leftover.path });
        expect((await host.call('worktree.leftovers', {})).leftovers).toEqual([]);
        expect(existsSync(stray)).toBe(false);
        expect(git('branch', '--list', 'cairn/*')).toBe('');
        expect(git('worktree', 'list').split('\n')).toHaveLength(1);
        expect((await host.call('session.get', { sessionId: vanished.sessionId })).session.workspacePath).toBe(repo);
      } finally {
        await host.close();
        data.cleanup();
      }
    },
  );

  it(
    'keeps a leftover the person chose to keep: not listed again, across a restart, and its folder left as it is',
    SLOW,
    async () => {
      const data = tempDataDir();
      let host = await startTestHost({ dataDir: data.dir });
      try {
        const kept = (await host.call('session.create', { title: 'Kept', workspacePath: repo, ownWorktree: true }))
          .session;
        const other = (await host.call('session.create', { title: 'Other', workspacePath: repo, ownWorktree: true }))
          .session;
        await host.call('session.remove', { sessionId: kept.sessionId });
        await host.call('session.remove', { sessionId: other.sessionId });
        const listed = (await host.call('worktree.leftovers', {})).leftovers.map(({ path }) => path);
        expect(listed).toEqual(expect.arrayContaining([kept.workspacePath, other.workspacePath]));

        const answer = await host.call('worktree.keepLeftover', { path: kept.workspacePath ?? '' });
        expect(answer.leftovers.map(({ path }) => path)).toEqual([other.workspacePath]);
        await host.close();

        host = await startTestHost({ dataDir: data.dir });
        expect((await host.call('worktree.leftovers', {})).leftovers.map(({ path }) => path)).toEqual([
          other.workspacePath,
        ]);
        expect(existsSync(kept.workspacePath ?? '')).toBe(true);
        await host.call('worktree.discardLeftover', { path: other.workspacePath ?? '' });
      } finally {
        await host.close();
        data.cleanup();
      }
    },
  );

  it('says worktrees are unavailable, with the reason, when git cannot be run', SLOW, async () => {
    const noGit = await startTestHost({ worktrees: { env: { ...process.env, PATH: '/nonexistent' } } });
    try {
      const { session } = await noGit.call('session.create', { workspacePath: repo });
      const refused = await noGit.invoke('worktree.create', { sessionId: session.sessionId });
      expect(refused.ok ? null : refused.error).toMatchObject({
        code: 'operation_unavailable',
        message: expect.stringContaining('Worktrees need git'),
      });
      expect(await noGit.call('worktree.status', { sessionId: session.sessionId })).toEqual({
        status: null,
        unavailable: expect.stringContaining('Worktrees need git'),
      });
    } finally {
      await noGit.close();
    }
  });
});
