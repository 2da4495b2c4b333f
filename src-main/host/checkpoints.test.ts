import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LISTED_FILES, type ListedChangeSet } from '../../src-shared/checkpoint-model';
import { startTestHost, type TestHost } from '../testing/host-fixture';
import { waitFor } from '../testing/wait-for';

// Checkpoints run real git on a real workspace; on a loaded machine a few git calls take seconds.
const SLOW = { timeout: 60_000 } as const;

let t: TestHost;
let workspace: string;
beforeEach(async () => {
  t = await startTestHost();
  workspace = mkdtempSync(join(tmpdir(), 'cairn-checkpoints-'));
  writeFileSync(join(workspace, 'old.txt'), 'old one\nold two\n');
  writeFileSync(join(workspace, 'notes.md'), 'alpha\nbeta\n');
});
afterEach(async () => {
  await t.close();
  rmSync(workspace, { recursive: true, force: true });
});

const read = (file: string) => readFileSync(join(workspace, file), 'utf8');

async function fullSession(): Promise<string> {
  return (await t.call('session.create', { workspacePath: workspace, permissionMode: 'full' })).session.sessionId;
}

/** Runs one turn and waits until its change set is recorded. */
async function turnWithChanges(sessionId: string, turnId: string, text: string): Promise<ListedChangeSet> {
  await t.call('turn.start', { sessionId, turnId, text });
  await turnEnded(sessionId, turnId);
  return waitFor(
    async () =>
      (await t.call('changes.list', { sessionId, turnId })).changeSets.find(
        (set) => set.status === 'complete' && set.origin === 'turn',
      ),
    {
      timeoutMs: 30_000,
      message: `the change set of ${turnId}`,
    },
  );
}

/** Like `waitForTurn`, with room for the git calls a writing turn makes on a loaded machine. */
async function turnEnded(sessionId: string, turnId: string): Promise<void> {
  await waitFor(async () => (await t.call('turn.query', { sessionId, turnId })).turn.status === 'completed', {
    timeoutMs: 30_000,
    message: `turn ${turnId} to complete`,
  });
}

const tools = (...calls: [string, unknown][]) => `/tools ${JSON.stringify(calls)}`;

describe('per-turn file checkpoints', () => {
  it(
    'records what write_file, edit_file and a run_shell command changed, with writers, line counts and diffs',
    SLOW,
    async () => {
      const sessionId = await fullSession();
      const changeSet = await turnWithChanges(
        sessionId,
        't1',
        tools(
          ['write_file', { path: 'src/a.ts', content: 'export const a = 1;\n' }],
          ['edit_file', { path: 'notes.md', search: 'beta', replace: 'gamma' }],
          ['run_shell', { command: 'rm old.txt && echo b > b.txt' }],
        ),
      );
      expect(existsSync(join(workspace, 'old.txt'))).toBe(false);
      // Each writer is listed once; a file names its writer by index (the command's two files share one).
      expect(changeSet.writers).toEqual([
        { kind: 'command', command: 'rm old.txt && echo b > b.txt' },
        { kind: 'file_tool', tool: 'edit_file' },
        { kind: 'file_tool', tool: 'write_file' },
      ]);
      expect(changeSet.files).toEqual([
        { path: 'b.txt', change: 'created', added: 1, removed: 0, writer: 0 },
        { path: 'notes.md', change: 'modified', added: 1, removed: 1, writer: 1 },
        { path: 'old.txt', change: 'deleted', added: 0, removed: 2, writer: 0 },
        { path: 'src/a.ts', change: 'created', added: 1, removed: 0, writer: 2 },
      ]);
      // The listing carries no diff bodies; each file's is read on its own.
      expect(changeSet.files.some((file) => 'diff' in file)).toBe(false);
      expect(
        (await t.call('changes.diff', { sessionId, changeSetId: changeSet.changeSetId, path: 'notes.md' })).diff,
      ).toContain('-beta\n+gamma');
      expect(
        (await t.invoke('changes.diff', { sessionId, changeSetId: changeSet.changeSetId, path: 'elsewhere.md' })).ok,
      ).toBe(false);
      expect(t.events.some((event) => event.kind === 'changes.changed' && event.turnId === 't1')).toBe(true);
      // A turn that only reads records nothing.
      await t.call('turn.start', { sessionId, turnId: 't2', text: '/tool read_file {"path":"notes.md"}' });
      await turnEnded(sessionId, 't2');
      expect((await t.call('changes.list', { sessionId, turnId: 't2' })).changeSets).toEqual([]);
    },
  );

  it('Revert this turn puts every file back, is recorded, and reverting the revert redoes the turn', SLOW, async () => {
    const sessionId = await fullSession();
    const changeSet = await turnWithChanges(
      sessionId,
      't1',
      tools(
        ['write_file', { path: 'a.txt', content: 'A\n' }],
        ['write_file', { path: 'notes.md', content: 'rewritten\n' }],
        ['run_shell', { command: 'rm old.txt' }],
      ),
    );
    const reverted = await t.call('changes.revert', { sessionId, changeSetId: changeSet.changeSetId });
    expect(reverted.status).toBe('reverted');
    expect(existsSync(join(workspace, 'a.txt'))).toBe(false);
    expect(read('notes.md')).toBe('alpha\nbeta\n');
    expect(read('old.txt')).toBe('old one\nold two\n');
    if (reverted.status !== 'reverted') return;
    expect(reverted.revert).toMatchObject({
      origin: 'revert',
      revertsChangeSetId: changeSet.changeSetId,
      status: 'complete',
      turnId: 't1',
    });
    expect(reverted.revert.files.map((file) => [file.path, file.change, file.writer.kind])).toEqual([
      ['a.txt', 'deleted', 'revert'],
      ['notes.md', 'modified', 'revert'],
      ['old.txt', 'created', 'revert'],
    ]);
    // The listing says the turn's files were all put back (so it offers no Revert this turn).
    const undoneOf = async () =>
      new Map((await t.call('changes.list', { sessionId })).changeSets.map((set) => [set.changeSetId, set.undone]));
    expect(await undoneOf()).toEqual(
      new Map<string, ListedChangeSet['undone']>([
        [changeSet.changeSetId, 'all'],
        [reverted.revert.changeSetId, []],
      ]),
    );
    const redone = await t.call('changes.revert', { sessionId, changeSetId: reverted.revert.changeSetId });
    expect(redone.status).toBe('reverted');
    expect(read('a.txt')).toBe('A\n');
    expect(read('notes.md')).toBe('rewritten\n');
    expect(existsSync(join(workspace, 'old.txt'))).toBe(false);
    // Undone, the revert counts no more: the turn's changes are back, and it can be reverted again.
    if (redone.status !== 'reverted') return;
    expect(await undoneOf()).toEqual(
      new Map<string, ListedChangeSet['undone']>([
        [changeSet.changeSetId, []],
        [reverted.revert.changeSetId, 'all'],
        [redone.revert.changeSetId, []],
      ]),
    );
  });

  it(
    'lists a large turn’s first files with its totals; changes.files reads the rest; Revert this turn still reverts them all',
    SLOW,
    async () => {
      const sessionId = await fullSession();
      const count = LISTED_FILES + 12;
      const changeSet = await turnWithChanges(
        sessionId,
        't1',
        tools([
          'run_shell',
          {
            command: `mkdir many && for i in $(seq 1 ${count}); do printf 'one\\ntwo\\n' > many/f$(printf %03d $i).txt; done`,
          },
        ]),
      );
      const paths = Array.from({ length: count }, (_, index) => `many/f${String(index + 1).padStart(3, '0')}.txt`);
      expect(changeSet).toMatchObject({ fileCount: count, added: 2 * count, removed: 0, undone: [] });
      expect(changeSet.files.map((file) => file.path)).toEqual(paths.slice(0, LISTED_FILES));
      const rest = await t.call('changes.files', {
        sessionId,
        changeSetId: changeSet.changeSetId,
        offset: LISTED_FILES,
      });
      expect(rest.fileCount).toBe(count);
      expect(rest.files.map((file) => file.path)).toEqual(paths.slice(LISTED_FILES));
      expect(rest.files[0]).toEqual({ path: paths[LISTED_FILES], change: 'created', added: 2, removed: 0, writer: 0 });
      expect(rest.writers).toEqual([{ kind: 'command', command: expect.stringContaining('mkdir many') as string }]);
      expect(
        (await t.call('changes.files', { sessionId, changeSetId: changeSet.changeSetId, offset: 0 })).files,
      ).toHaveLength(count);
      // Bad input and a change set of another session are refused, clearly.
      expect(
        await t.invoke('changes.files', { sessionId, changeSetId: changeSet.changeSetId, offset: -1 }),
      ).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
      const other = (await t.call('session.create', { workspacePath: workspace, permissionMode: 'full' })).session
        .sessionId;
      expect(
        await t.invoke('changes.files', { sessionId: other, changeSetId: changeSet.changeSetId, offset: 0 }),
      ).toMatchObject({ ok: false, error: { code: 'not_found' } });
      // The revert works on the host's whole change set, not on what the listing carries.
      const reverted = await t.call('changes.revert', { sessionId, changeSetId: changeSet.changeSetId });
      expect(reverted.status === 'reverted' ? reverted.revert.files.length : reverted.status).toBe(count);
      expect(paths.filter((path) => existsSync(join(workspace, path)))).toEqual([]);
      const listed = (await t.call('changes.list', { sessionId })).changeSets;
      expect(listed.map((set) => [set.origin, set.fileCount, set.files.length, set.undone])).toEqual([
        ['turn', count, LISTED_FILES, 'all'],
        ['revert', count, LISTED_FILES, []],
      ]);
    },
  );

  it('Revert file puts back only that file', SLOW, async () => {
    const sessionId = await fullSession();
    const changeSet = await turnWithChanges(
      sessionId,
      't1',
      tools(
        ['write_file', { path: 'a.txt', content: 'A\n' }],
        ['write_file', { path: 'notes.md', content: 'rewritten\n' }],
      ),
    );
    expect(
      (await t.call('changes.revert', { sessionId, changeSetId: changeSet.changeSetId, path: 'notes.md' })).status,
    ).toBe('reverted');
    expect(read('notes.md')).toBe('alpha\nbeta\n');
    expect(read('a.txt')).toBe('A\n');
    expect(
      (await t.call('changes.revert', { sessionId, changeSetId: changeSet.changeSetId, path: 'notes.md' })).status,
    ).toBe('nothing_to_revert');
    expect(
      (await t.invoke('changes.revert', { sessionId, changeSetId: changeSet.changeSetId, path: 'other.txt' })).ok,
    ).toBe(false);
  });

  it(
    'refuses to overwrite a file the person changed since, listing it; keep mine and take checkpoint decide',
    SLOW,
    async () => {
      const sessionId = await fullSession();
      const changeSet = await turnWithChanges(
        sessionId,
        't1',
        tools(
          ['write_file', { path: 'a.txt', content: 'A\n' }],
          ['write_file', { path: 'notes.md', content: 'agent\n' }],
        ),
      );
      writeFileSync(join(workspace, 'notes.md'), 'mine\n');
      expect(await t.call('changes.revert', { sessionId, changeSetId: changeSet.changeSetId })).toEqual({
        status: 'conflict',
        files: ['notes.md'],
      });
      expect(read('notes.md')).toBe('mine\n');
      expect(read('a.txt')).toBe('A\n');
      expect(
        (await t.call('changes.revert', { sessionId, changeSetId: changeSet.changeSetId, resolution: 'keep_mine' }))
          .status,
      ).toBe('reverted');
      expect(existsSync(join(workspace, 'a.txt'))).toBe(false);
      expect(read('notes.md')).toBe('mine\n');
      expect(
        (
          await t.call('changes.revert', {
            sessionId,
            changeSetId: changeSet.changeSetId,
            resolution: 'take_checkpoint',
          })
        ).status,
      ).toBe('reverted');
      expect(read('notes.md')).toBe('alpha\nbeta\n');
    },
  );

  it(
    'Open both keeps the person’s file, writes the checkpoint’s version beside it, and reverts the rest; undoing it removes the copy',
    SLOW,
    async () => {
      const sessionId = await fullSession();
      const changeSet = await turnWithChanges(
        sessionId,
        't1',
        tools(
          ['write_file', { path: 'a.txt', content: 'A\n' }],
          ['write_file', { path: 'notes.md', content: 'agent\n' }],
        ),
      );
      writeFileSync(join(workspace, 'notes.md'), 'mine\n');
      writeFileSync(join(workspace, 'notes.cairn-checkpoint.md'), 'an older copy\n');
      const result = await t.call('changes.revert', {
        sessionId,
        changeSetId: changeSet.changeSetId,
        resolution: 'open_both',
      });
      if (result.status !== 'reverted') throw new Error(`expected a revert, got ${result.status}`);
      expect(read('notes.md')).toBe('mine\n');
      // The name was taken (by an earlier copy, never overwritten): the next one is numbered.
      expect(read('notes.cairn-checkpoint.md')).toBe('an older copy\n');
      expect(read('notes.cairn-checkpoint-2.md')).toBe('alpha\nbeta\n');
      expect(existsSync(join(workspace, 'a.txt'))).toBe(false);
      expect(result.revert.files.map((file) => [file.path, file.change])).toEqual([
        ['a.txt', 'deleted'],
        ['notes.cairn-checkpoint-2.md', 'created'],
      ]);
      expect((await t.call('changes.revert', { sessionId, changeSetId: result.revert.changeSetId })).status).toBe(
        'reverted',
      );
      expect(existsSync(join(workspace, 'notes.cairn-checkpoint-2.md'))).toBe(false);
      expect(read('a.txt')).toBe('A\n');
      expect(read('notes.md')).toBe('mine\n');
    },
  );

  it('honours .gitignore and the size cap, and never touches the workspace’s own .git', SLOW, async () => {
    await t.close();
    t = await startTestHost({ checkpoints: { maxFileBytes: 1000 } });
    writeFileSync(join(workspace, '.gitignore'), 'build/\n');
    const sessionId = await fullSession();
    const changeSet = await turnWithChanges(
      sessionId,
      't1',
      tools([
        'run_shell',
        {
          command:
            'git init -q && mkdir -p build && echo out > build/x.js && head -c 5000 /dev/zero > big.bin && echo kept > kept.txt',
        },
      ]),
    );
    expect(changeSet.files.map((file) => file.path)).toEqual(['kept.txt']);
    expect(changeSet.note).toContain('big.bin');
    expect(readFileSync(join(workspace, '.git', 'HEAD'), 'utf8')).toContain('refs/heads/');
    expect(existsSync(join(workspace, '.git', 'refs', 'cairn'))).toBe(false);
  });

  it(
    'leaves Cairn’s own data directory out when the workspace holds it (a home folder): only the person’s files change',
    SLOW,
    async () => {
      await t.close();
      t = await startTestHost({ dataDir: join(workspace, '.local', 'cairn') });
      const sessionId = await fullSession();
      // The turn's own records are written to the database under the workspace as it runs.
      const changeSet = await turnWithChanges(
        sessionId,
        't1',
        tools(['write_file', { path: 'todo.txt', content: 'one\n' }]),
      );
      expect(changeSet.files.map((file) => file.path)).toEqual(['todo.txt']);
      const reverted = await t.call('changes.revert', { sessionId, changeSetId: changeSet.changeSetId });
      if (reverted.status !== 'reverted') throw new Error(`expected a revert, got ${reverted.status}`);
      expect(reverted.revert.files.map((file) => file.path)).toEqual(['todo.txt']);
      expect(existsSync(join(workspace, 'todo.txt'))).toBe(false);
      expect((await t.call('session.get', { sessionId })).session.sessionId).toBe(sessionId);
    },
  );

  it(
    'a file tool’s write takes only its own file’s state before; a command in the same turn widens the checkpoint to the whole workspace',
    SLOW,
    async () => {
      const sessionId = await fullSession();
      const beforeTree = (changeSetId: string) => {
        const [shadow] = readdirSync(join(t.dataDir, 'checkpoints'));
        const gitDir = join(t.dataDir, 'checkpoints', shadow ?? '');
        return execFileSync('git', ['ls-tree', '-r', '--name-only', `refs/cairn/${changeSetId}/before`], {
          env: { PATH: process.env.PATH, GIT_DIR: gitDir },
        })
          .toString('utf8')
          .trim()
          .split('\n');
      };
      const written = await turnWithChanges(
        sessionId,
        't1',
        tools(['write_file', { path: 'notes.md', content: 'rewritten\n' }]),
      );
      expect(beforeTree(written.changeSetId)).toEqual(['notes.md']);
      expect(written.files.map((file) => [file.path, file.change])).toEqual([['notes.md', 'modified']]);
      expect((await t.call('changes.revert', { sessionId, changeSetId: written.changeSetId })).status).toBe('reverted');
      expect(read('notes.md')).toBe('alpha\nbeta\n');

      const widened = await turnWithChanges(
        sessionId,
        't2',
        tools(['write_file', { path: 'notes.md', content: 'again\n' }], ['run_shell', { command: 'rm old.txt' }]),
      );
      expect(beforeTree(widened.changeSetId)).toEqual(['notes.md', 'old.txt']);
      expect(widened.files.map((file) => [file.path, file.change, widened.writers[file.writer]?.kind])).toEqual([
        ['notes.md', 'modified', 'file_tool'],
        ['old.txt', 'deleted', 'command'],
      ]);
      expect((await t.call('changes.revert', { sessionId, changeSetId: widened.changeSetId })).status).toBe('reverted');
      expect([read('notes.md'), read('old.txt')]).toEqual(['alpha\nbeta\n', 'old one\nold two\n']);
    },
  );

  it(
    'removing a session drops its checkpoint refs and prunes what no other session’s checkpoints reach; archiving keeps them',
    SLOW,
    async () => {
      const git = (...args: string[]) => {
        const [shadow] = readdirSync(join(t.dataDir, 'checkpoints'));
        return execFileSync('git', args, {
          env: { PATH: process.env.PATH, GIT_DIR: join(t.dataDir, 'checkpoints', shadow ?? '') },
        })
          .toString('utf8')
          .trim();
      };
      const refsOf = (changeSetId: string) => git('for-each-ref', '--format=%(refname)', `refs/cairn/${changeSetId}/`);
      const first = await fullSession();
      const kept = await fullSession();
      const gone = await turnWithChanges(
        first,
        't1',
        tools(['write_file', { path: 'big.txt', content: 'only the first session wrote this\n'.repeat(2_000) }]),
      );
      // Overwritten: the first version is in the first session's checkpoints only, not in the workspace.
      await turnWithChanges(first, 't2', tools(['run_shell', { command: 'echo small now > big.txt' }]));
      const stays = await turnWithChanges(kept, 't1', tools(['write_file', { path: 'notes.md', content: 'kept\n' }]));
      const blob = git('rev-parse', `refs/cairn/${gone.changeSetId}/after:big.txt`);

      await t.call('session.archive', { sessionId: first, archived: true });
      await t.call('session.archive', { sessionId: first, archived: false });
      expect(refsOf(gone.changeSetId).split('\n')).toHaveLength(2);

      await t.call('session.remove', { sessionId: first });
      await waitFor(() => refsOf(gone.changeSetId) === '', { timeoutMs: 30_000, message: 'the removed refs' });
      await waitFor(
        () => {
          try {
            git('cat-file', '-e', blob);
            return false;
          } catch {
            return true;
          }
        },
        { timeoutMs: 30_000, message: 'the removed session’s file to be pruned' },
      );
      expect(refsOf(stays.changeSetId).split('\n')).toHaveLength(2);
      expect((await t.call('changes.revert', { sessionId: kept, changeSetId: stays.changeSetId })).status).toBe(
        'reverted',
      );
      expect(read('notes.md')).toBe('alpha\nbeta\n');
    },
  );
});
