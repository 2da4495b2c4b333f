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
  await waitFor(async () => (await t.call('turn.query', { sessionId, turnId })).turn.status === 'completed', { timeoutMs: 30_000, message: `turn ${turnId} to complete` });
  await waitFor(async () => (await t.call('changes.list', { sessionId, turnId })).changeSets.some((set) => set.status === 'complete'), {
    timeoutMs: 30_000,
    message: `the change set of ${turnId}`,
  });
}

/** A session whose three turns change files: t1 writes a.txt and edits notes.md; t2 rewrites a.txt, writes b.txt and deletes old.txt; t3 writes c.txt. */
async function threeTurns(): Promise<{ sessionId: string; secondMessage: string }> {
  const { session } = await t.call('session.create', { title: 'Work', workspacePath: workspace, permissionMode: 'full' });
  const sessionId = session.sessionId;
  await turn(sessionId, 't1', tools(['write_file', { path: 'a.txt', content: 'A1\n' }], ['edit_file', { path: 'notes.md', search: 'beta', replace: 'gamma' }]));
  await turn(
    sessionId,
    't2',
    tools(['write_file', { path: 'a.txt', content: 'A2\n' }], ['write_file', { path: 'b.txt', content: 'B\n' }], ['run_shell', { command: 'rm old.txt' }]),
  );
  await turn(sessionId, 't3', tools(['write_file', { path: 'c.txt', content: 'C\n' }]));
  const items = (await t.call('transcript.page', { sessionId, limit: 500 })).items;
  const second = items.find((item) => item.kind === 'user_message' && item.turnId === 't2');
  if (second === undefined) throw new Error('no message of t2');
  return { sessionId, secondMessage: second.itemId };
}

describe('Rewind to here', () => {
  it('puts the files of every later turn back, branches the conversation before the turn, and is undone by reverting the rewind', SLOW, async () => {
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
    expect((await t.call('transcript.page', { sessionId, limit: 500 })).turns.map((item) => item.turnId)).toEqual(['t1', 't2', 't3']);
    expect((await t.call('session.branches', { sessionId: branchId })).branchedFrom).toMatchObject({ sourceSessionId: sessionId, atItemId: secondMessage, mode: 'rewind' });

    // The rewind is recorded in the branch, named after the turn rewound to.
    expect(result.rewind?.origin).toBe('rewind');
    const listed = (await t.call('changes.list', { sessionId: branchId })).changeSets;
    expect(listed).toHaveLength(1);
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
  });

  it('never overwrites a file the person changed since: the conflict changes nothing and makes no branch; Keep mine keeps it', SLOW, async () => {
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

    const kept = await t.call('session.rewind', { sessionId, atItemId: secondMessage, requestId: 'rw-3', resolution: 'keep_mine' });
    expect(kept.status).toBe('rewound');
    expect(read('c.txt')).toBe('mine\n');
    expect(read('a.txt')).toBe('A1\n');
    expect(existsSync(join(workspace, 'b.txt'))).toBe(false);
  });

  it('is refused on an agent answer and while a turn runs', SLOW, async () => {
    const { sessionId } = await threeTurns();
    const answer = (await t.call('transcript.page', { sessionId, limit: 500 })).items.find((item) => item.kind === 'assistant_message');
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
