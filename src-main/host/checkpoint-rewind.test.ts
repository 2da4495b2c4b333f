import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../testing/host-fixture';
import { waitFor } from '../testing/wait-for';

// Rewinds run real git on a real workspace; on a loaded machine a few git calls take seconds.
const SLOW = { timeout: 90_000 } as const;

let t: TestHost;
let workspace: string;
beforeEach(async () => {
  t = await startTestHost();
  workspace = mkdtempSync(join(tmpdir(), 'cairn-rewind-'));
  writeFileSync(join(workspace, 'notes.md'), 'alpha\nbeta\n');
  writeFileSync(join(workspace, 'old.txt'), 'old\n');
});
afterEach(async () => {
  await t.close();
  rmSync(workspace, { recursive: true, force: true });
});

const read = (file: string) => readFileSync(join(workspace, file), 'utf8');
const tools = (...calls: [string, unknown][]) => `/tools ${JSON.stringify(calls)}`;

/** Runs a turn and waits until its change set is recorded. */
async function turn(sessionId: string, turnId: string, text: string): Promise<void> {
  await t.call('turn.start', { sessionId, turnId, text });
  await waitFor(async () => (await t.call('turn.query', { sessionId, turnId })).turn.status === 'completed', {
    timeoutMs: 30_000,
    message: `turn ${turnId} to complete`,
  });
  await waitFor(
    async () =>
      (await t.call('changes.list', { sessionId, turnId })).changeSets.some((set) => set.status === 'complete'),
    {
      timeoutMs: 30_000,
      message: `the change set of ${turnId}`,
    },
  );
}

/** A session whose three turns change files: t1 writes a.txt and edits notes.md; t2 rewrites a.txt, writes b.txt and deletes old.txt; t3 writes c.txt. */
async function threeTurns(): Promise<{ sessionId: string; secondMessage: string }> {
  const { session } = await t.call('session.create', {
    title: 'Work',
    workspacePath: workspace,
    permissionMode: 'full',
  });
  const sessionId = session.sessionId;
  await turn(
    sessionId,
    't1',
    tools(
      ['write_file', { path: 'a.txt', content: 'A1\n' }],
      ['edit_file', { path: 'notes.md', search: 'beta', replace: 'gamma' }],
    ),
  );
  await turn(
    sessionId,
    't2',
    tools(
      ['write_file', { path: 'a.txt', content: 'A2\n' }],
      ['write_file', { path: 'b.txt', content: 'B\n' }],
      ['run_shell', { command: 'rm old.txt' }],
    ),
  );
  await turn(sessionId, 't3', tools(['write_file', { path: 'c.txt', content: 'C\n' }]));
  const items = (await t.call('transcript.page', { sessionId, limit: 500 })).items;
  const second = items.find((item) => item.kind === 'user_message' && item.turnId === 't2');
  if (second === undefined) throw new Error('no message of t2');
  return { sessionId, secondMessage: second.itemId };
}

describe('Rewind to here', () => {
  it(
    'puts the files of every later turn back, branches the conversation before the turn, and is undone by reverting the rewind',
    SLOW,
    async () => {
      const { sessionId, secondMessage } = await threeTurns();

      const result = await t.call('session.rewind', { sessionId, atItemId: secondMessage, requestId: 'rw-1' });
      if (result.status !== 'rewound') throw new Error(`expected a rewind, got ${result.status}`);
      // Files: as after t1 (t2 and t3 undone, newest first; t1's edit kept).
      expect(read('a.txt')).toBe('A1\n');
      expect(read('notes.md')).toBe('alpha\ngamma\n');
      expect(read('old.txt')).toBe('old\n');
      expect(existsSync(join(workspace, 'b.txt'))).toBe(false);
      expect(existsSync(join(workspace, 'c.txt'))).toBe(false);

      // Conversation: the branch holds t1 only and runs nothing; the source keeps every turn.
      const branchId = result.session.sessionId;
      expect(result.session.title).toBe('Work (rewound)');
      const branchPage = await t.call('transcript.page', { sessionId: branchId, limit: 500 });
      expect(new Set(branchPage.items.map((item) => item.turnId))).toEqual(new Set(['t1']));
      expect(branchPage.turns.map((item) => item.turnId)).toEqual(['t1']);
      expect((await t.call('transcript.page', { sessionId, limit: 500 })).turns.map((item) => item.turnId)).toEqual([
        't1',
        't2',
        't3',
      ]);
      expect((await t.call('session.branches', { sessionId: branchId })).branchedFrom).toMatchObject({
        sourceSessionId: sessionId,
        atItemId: secondMessage,
        mode: 'rewind',
      });

      // The rewind is recorded in the branch, named after the turn rewound to.
      expect(result.rewind?.origin).toBe('rewind');
      // The branch lists it after what its copied turn t1 did (that change set is the source's).
      const all = (await t.call('changes.list', { sessionId: branchId })).changeSets;
      expect(all.map((set) => [set.origin, set.turnId, set.sessionId])).toEqual([
        ['turn', 't1', sessionId],
        ['rewind', 't2', branchId],
      ]);
      const listed = all.slice(1);
      expect(listed[0]?.turnText).toContain('A2');
      expect(listed[0]?.files.map((file) => [file.path, file.change])).toEqual([
        ['a.txt', 'modified'],
        ['b.txt', 'deleted'],
        ['c.txt', 'deleted'],
        ['old.txt', 'created'],
      ]);

      // A replayed request returns the same branch and changes nothing.
      const replay = await t.call('session.rewind', { sessionId, atItemId: secondMessage, requestId: 'rw-1' });
      expect(replay.status === 'rewound' && replay.session.sessionId).toBe(branchId);

      // Undo: reverting the rewind puts the files forward again.
      const undo = await t.call('changes.revert', { sessionId: branchId, changeSetId: listed[0]?.changeSetId ?? '' });
      expect(undo.status).toBe('reverted');
      expect(read('a.txt')).toBe('A2\n');
      expect(read('c.txt')).toBe('C\n');
      expect(existsSync(join(workspace, 'old.txt'))).toBe(false);
    },
  );

  it(
    'never overwrites a file the person changed since: the conflict changes nothing and makes no branch; Keep mine keeps it',
    SLOW,
    async () => {
      const { sessionId, secondMessage } = await threeTurns();
      writeFileSync(join(workspace, 'c.txt'), 'mine\n');
      const sessionsBefore = (await t.call('session.list', {})).sessions.length;

      // The plan says what the rewind would do, the person's edit marked, and writes nothing.
      const plan = await t.call('session.rewindPlan', { sessionId, atItemId: secondMessage });
      expect(plan).toEqual({
        hasWorkspace: true,
        files: [
          { path: 'a.txt', action: 'change', changedSince: false },
          { path: 'b.txt', action: 'delete', changedSince: false },
          { path: 'c.txt', action: 'delete', changedSince: true },
          { path: 'old.txt', action: 'create', changedSince: false },
        ],
      });
      expect(read('a.txt')).toBe('A2\n');
      expect(read('c.txt')).toBe('mine\n');
      expect(existsSync(join(workspace, 'old.txt'))).toBe(false);
      expect((await t.call('session.list', {})).sessions).toHaveLength(sessionsBefore);

      const conflict = await t.call('session.rewind', { sessionId, atItemId: secondMessage, requestId: 'rw-2' });
      expect(conflict).toEqual({ status: 'conflict', files: ['c.txt'] });
      expect(read('a.txt')).toBe('A2\n');
      expect((await t.call('session.list', {})).sessions).toHaveLength(sessionsBefore);

      const kept = await t.call('session.rewind', {
        sessionId,
        atItemId: secondMessage,
        requestId: 'rw-3',
        resolution: 'keep_mine',
      });
      expect(kept.status).toBe('rewound');
      expect(read('c.txt')).toBe('mine\n');
      expect(read('a.txt')).toBe('A1\n');
      expect(existsSync(join(workspace, 'b.txt'))).toBe(false);
    },
  );

  it('is refused on an agent answer and while a turn runs', SLOW, async () => {
    const { sessionId } = await threeTurns();
    const answer = (await t.call('transcript.page', { sessionId, limit: 500 })).items.find(
      (item) => item.kind === 'assistant_message',
    );
    const refused = await t.invoke('session.rewind', { sessionId, atItemId: answer?.itemId ?? '', requestId: 'rw-4' });
    expect(refused.ok ? null : refused.error.code).toBe('invalid_input');
    const refusedPlan = await t.invoke('session.rewindPlan', { sessionId, atItemId: answer?.itemId ?? '' });
    expect(refusedPlan.ok ? null : refusedPlan.error.code).toBe('invalid_input');

    const { items } = await t.call('transcript.page', { sessionId, limit: 500 });
    await t.call('turn.start', { sessionId, turnId: 't4', text: '/ask' });
    await t.waitForTurn(sessionId, 't4', ['waiting']);
    const busy = await t.invoke('session.rewind', { sessionId, atItemId: items[0]?.itemId ?? '', requestId: 'rw-5' });
    expect(busy.ok ? null : busy.error.code).toBe('session_busy');
    const busyPlan = await t.invoke('session.rewindPlan', { sessionId, atItemId: items[0]?.itemId ?? '' });
    expect(busyPlan.ok ? null : busyPlan.error.code).toBe('session_busy');
    expect(read('c.txt')).toBe('C\n');
  });
});

describe('Rewind from a branch', () => {
  /** The workspace as a git repository with one commit (the person's own `.git`, which checkpoints never touch). */
  function gitWorkspace(): void {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: workspace, stdio: 'ignore' });
    git('init', '-q');
    git('add', '-A');
    git('-c', 'user.name=Test', '-c', 'user.email=test@example.invalid', 'commit', '-q', '-m', 'start');
  }
  const exists = (file: string) => existsSync(join(workspace, file));
  const write = (file: string) =>
    `/tool write_file ${JSON.stringify({ path: file, content: `${file.toUpperCase()}\n` })}`;

  /** The person's message of `turnId` in `sessionId` (a branch's copied items have ids of their own). */
  async function messageOf(sessionId: string, turnId: string): Promise<string> {
    const items = (await t.call('transcript.page', { sessionId, limit: 500 })).items;
    const message = items.find((item) => item.kind === 'user_message' && item.turnId === turnId);
    if (message === undefined) throw new Error(`no message of ${turnId} in ${sessionId}`);
    return message.itemId;
  }

  async function rewind(
    sessionId: string,
    turnId: string,
    requestId: string,
  ): Promise<{ branchId: string; changeSetId: string; files: string[] }> {
    const result = await t.call('session.rewind', {
      sessionId,
      atItemId: await messageOf(sessionId, turnId),
      requestId,
    });
    if (result.status !== 'rewound') throw new Error(`expected a rewind, got ${result.status}`);
    return {
      branchId: result.session.sessionId,
      changeSetId: result.rewind?.changeSetId ?? '',
      files: (result.rewind?.files ?? []).map((file) => `${file.change} ${file.path}`),
    };
  }

  async function writes(...files: string[]): Promise<string> {
    const { session } = await t.call('session.create', {
      title: 'Files',
      workspacePath: workspace,
      permissionMode: 'full',
    });
    for (const file of files) await turn(session.sessionId, `t-${file}`, write(file));
    return session.sessionId;
  }

  it(
    'rewinds inside a rewound branch through the source’s checkpoints: neither file, and its Undo puts back only what it took',
    SLOW,
    async () => {
      gitWorkspace();
      const sessionId = await writes('a.md', 'b.md');

      const first = await rewind(sessionId, 't-b.md', 'rw-b');
      expect(exists('b.md')).toBe(false);
      expect(read('a.md')).toBe('A.MD\n');

      const second = await rewind(first.branchId, 't-a.md', 'rw-a');
      expect(exists('a.md')).toBe(false);
      expect(exists('b.md')).toBe(false);
      expect(second.files).toEqual(['deleted a.md']);
      const listed = (await t.call('changes.list', { sessionId: second.branchId })).changeSets;
      expect(listed.map((set) => [set.origin, set.turnText])).toEqual([['rewind', write('a.md')]]);

      // Undo of the rewind made from the branch: a.md back, b.md still gone (it was rewound before).
      const undo = await t.call('changes.revert', { sessionId: second.branchId, changeSetId: second.changeSetId });
      expect(undo.status).toBe('reverted');
      expect(read('a.md')).toBe('A.MD\n');
      expect(exists('b.md')).toBe(false);
    },
  );

  it('goes back through a branch of a branch of a branch, and through an Edit branch', SLOW, async () => {
    gitWorkspace();
    const sessionId = await writes('a.md', 'b.md', 'c.md');

    const one = await rewind(sessionId, 't-c.md', 'rw-c');
    expect([exists('a.md'), exists('b.md'), exists('c.md')]).toEqual([true, true, false]);
    const two = await rewind(one.branchId, 't-b.md', 'rw-b');
    expect(two.files).toEqual(['deleted b.md']);
    expect([exists('a.md'), exists('b.md'), exists('c.md')]).toEqual([true, false, false]);
    const three = await rewind(two.branchId, 't-a.md', 'rw-a');
    expect(three.files).toEqual(['deleted a.md']);
    expect([exists('a.md'), exists('b.md'), exists('c.md')]).toEqual([false, false, false]);

    // Undo the deepest rewind, then the middle one: each puts back exactly its own file.
    expect((await t.call('changes.revert', { sessionId: three.branchId, changeSetId: three.changeSetId })).status).toBe(
      'reverted',
    );
    expect([exists('a.md'), exists('b.md'), exists('c.md')]).toEqual([true, false, false]);
    expect((await t.call('changes.revert', { sessionId: two.branchId, changeSetId: two.changeSetId })).status).toBe(
      'reverted',
    );
    expect([exists('a.md'), exists('b.md'), exists('c.md')]).toEqual([true, true, false]);

    // An Edit branch of the first rewound branch runs a new turn (d.md) on top of a.md and b.md;
    // rewinding it to its copied first turn takes the workspace back to before a.md.
    const edited = await t.call('session.branch', {
      sessionId: one.branchId,
      atItemId: await messageOf(one.branchId, 't-b.md'),
      mode: 'edit',
      text: write('d.md'),
      requestId: 'edit-d',
    });
    const editId = edited.session.sessionId;
    await t.waitForTurn(editId, 'edit-d', ['completed']);
    await waitFor(
      async () =>
        (await t.call('changes.list', { sessionId: editId, turnId: 'edit-d' })).changeSets.some(
          (set) => set.status === 'complete',
        ),
      {
        timeoutMs: 30_000,
        message: 'the change set of the edited turn',
      },
    );
    expect(read('d.md')).toBe('D.MD\n');
    const four = await rewind(editId, 't-a.md', 'rw-edit');
    expect(four.files.sort()).toEqual(['deleted a.md', 'deleted b.md', 'deleted d.md']);
    expect([exists('a.md'), exists('b.md'), exists('c.md'), exists('d.md')]).toEqual([false, false, false, false]);
  });

  it(
    'lists what a branch’s copied turns did, and reverts it from the branch; a rewind after that revert is right too',
    SLOW,
    async () => {
      gitWorkspace();
      const sessionId = await writes('a.md', 'b.md');
      const first = await rewind(sessionId, 't-b.md', 'rw-b');
      const listed = (await t.call('changes.list', { sessionId: first.branchId })).changeSets;
      expect(listed.map((set) => [set.origin, set.turnText])).toEqual([
        ['turn', write('a.md')],
        ['rewind', write('b.md')],
      ]);
      expect(
        (await t.call('changes.list', { sessionId: first.branchId, turnId: 't-a.md' })).changeSets.map(
          (set) => set.changeSetId,
        ),
      ).toEqual([listed[0]?.changeSetId]);

      const reverted = await t.call('changes.revert', {
        sessionId: first.branchId,
        changeSetId: listed[0]?.changeSetId ?? '',
      });
      if (reverted.status !== 'reverted') throw new Error(`expected a revert, got ${reverted.status}`);
      expect(reverted.revert.sessionId).toBe(first.branchId);
      expect([exists('a.md'), exists('b.md')]).toEqual([false, false]);
      // Undo of that revert brings a.md back, and only it.
      expect(
        (await t.call('changes.revert', { sessionId: first.branchId, changeSetId: reverted.revert.changeSetId }))
          .status,
      ).toBe('reverted');
      expect([read('a.md'), exists('b.md')]).toEqual(['A.MD\n', false]);
      // The source's change sets are not another session's to revert.
      const strangers = (
        await t.call('session.create', { title: 'Other', workspacePath: workspace, permissionMode: 'full' })
      ).session.sessionId;
      const refused = await t.invoke('changes.revert', {
        sessionId: strangers,
        changeSetId: listed[0]?.changeSetId ?? '',
      });
      expect(refused.ok ? null : refused.error.code).toBe('not_found');

      const again = await rewind(first.branchId, 't-a.md', 'rw-a');
      expect(again.files).toEqual(['deleted a.md']);
      expect([exists('a.md'), exists('b.md')]).toEqual([false, false]);
    },
  );

  it('goes back through a Regenerate branch’s copied turns', SLOW, async () => {
    gitWorkspace();
    const sessionId = await writes('a.md', 'b.md');
    const answer = (await t.call('transcript.page', { sessionId, limit: 500 })).items.find(
      (item) => item.kind === 'assistant_message' && item.turnId === 't-b.md',
    );
    const regenerated = await t.call('session.branch', {
      sessionId,
      atItemId: answer?.itemId ?? '',
      mode: 'regenerate',
      requestId: 'regen-b',
    });
    const branchId = regenerated.session.sessionId;
    await t.waitForTurn(branchId, 'regen-b', ['completed']);
    await waitFor(
      async () =>
        (await t.call('changes.list', { sessionId: branchId })).changeSets.every((set) => set.status === 'complete'),
      {
        timeoutMs: 30_000,
        message: 'the change set of the regenerated turn',
      },
    );
    const back = await rewind(branchId, 't-a.md', 'rw-regen');
    expect(back.files.sort()).toEqual(['deleted a.md', 'deleted b.md']);
    expect([exists('a.md'), exists('b.md')]).toEqual([false, false]);
  });

  it('asks before overwriting a hand edit made in the branch, and changes nothing until told', SLOW, async () => {
    gitWorkspace();
    const sessionId = await writes('a.md', 'b.md');
    const first = await rewind(sessionId, 't-b.md', 'rw-b');
    writeFileSync(join(workspace, 'a.md'), 'mine\n');
    writeFileSync(join(workspace, 'b.md'), 'also mine\n');
    const sessionsBefore = (await t.call('session.list', {})).sessions.length;

    const atA = await messageOf(first.branchId, 't-a.md');
    const conflict = await t.call('session.rewind', { sessionId: first.branchId, atItemId: atA, requestId: 'rw-a' });
    expect(conflict).toEqual({ status: 'conflict', files: ['a.md', 'b.md'] });
    expect(read('a.md')).toBe('mine\n');
    expect(read('b.md')).toBe('also mine\n');
    expect((await t.call('session.list', {})).sessions).toHaveLength(sessionsBefore);

    const taken = await t.call('session.rewind', {
      sessionId: first.branchId,
      atItemId: atA,
      requestId: 'rw-a2',
      resolution: 'take_checkpoint',
    });
    expect(taken.status).toBe('rewound');
    expect([exists('a.md'), exists('b.md')]).toEqual([false, false]);
  });

  it(
    'refuses to rewind into the turns before a branch whose source was deleted, and still rewinds the branch’s own turns',
    SLOW,
    async () => {
      gitWorkspace();
      const sessionId = await writes('a.md', 'b.md');
      const first = await rewind(sessionId, 't-b.md', 'rw-b');
      await turn(first.branchId, 't-c.md', write('c.md'));
      await t.call('session.remove', { sessionId });
      const refused = await t.invoke('session.rewind', {
        sessionId: first.branchId,
        atItemId: await messageOf(first.branchId, 't-a.md'),
        requestId: 'rw-a',
      });
      expect(refused.ok ? null : refused.error.code).toBe('operation_unavailable');
      expect([read('a.md'), read('c.md')]).toEqual(['A.MD\n', 'C.MD\n']);

      const own = await rewind(first.branchId, 't-c.md', 'rw-c');
      expect(own.files).toEqual(['deleted c.md']);
      expect([exists('a.md'), exists('c.md')]).toEqual([true, false]);
    },
  );
});
