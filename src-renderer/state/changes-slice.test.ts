import { describe, expect, it, vi } from 'vitest';
import { FILES_PAGE, type ListedChangeSet } from '../../src-shared/checkpoint-model';
import { changeDiffKey } from './changes-actions';
import { session } from './reducers/record-fixtures';
import { setupStore as setup } from './test-store';

const changeSet = (changeSetId: string, origin: 'turn' | 'revert' = 'turn'): ListedChangeSet => ({
  changeSetId,
  sessionId: 's1',
  turnId: 't1',
  turnText: 'write things',
  workspaceGone: null,
  origin,
  revertsChangeSetId: origin === 'revert' ? 'cs1' : null,
  status: 'complete',
  note: null,
  files: [{ path: 'a.txt', change: 'created', added: 1, removed: 0, writer: 0 }],
  writers: [{ kind: 'file_tool', tool: 'write_file' }],
  fileCount: 1,
  added: 1,
  removed: 0,
  undone: [],
  createdAt: 1,
  completedAt: 2,
});

describe('the changes slice', () => {
  it('opens the conflict choice with the files, answers it with the resolution, and reloads after a revert', async () => {
    const { store, link } = setup({ openSession: 's1' });
    let changeSets = [changeSet('cs1')];
    link.answer('changes.list', () => ({ ok: true, result: { changeSets, unavailable: null } }));
    await store.getState().loadChanges('s1');
    link.answer('changes.revert', (input) =>
      input.resolution === undefined
        ? { ok: true as const, result: { status: 'conflict' as const, files: ['a.txt'] } }
        : {
            ok: true as const,
            result: { status: 'reverted' as const, revert: { ...changeSet('cs2', 'revert'), files: [] } },
          },
    );
    await store.getState().revertChanges('s1', 'cs1', null);
    expect(store.getState().revertConflict).toEqual({
      kind: 'revert',
      sessionId: 's1',
      changeSetId: 'cs1',
      path: null,
      files: ['a.txt'],
    });
    changeSets = [changeSet('cs1'), changeSet('cs2', 'revert')];
    await store.getState().revertChanges('s1', 'cs1', null, 'keep_mine');
    expect(link.callsOf('changes.revert')).toEqual([
      { sessionId: 's1', changeSetId: 'cs1' },
      { sessionId: 's1', changeSetId: 'cs1', resolution: 'keep_mine' },
    ]);
    expect(store.getState().revertConflict).toBeNull();
    await vi.waitFor(() =>
      expect(store.getState().changesBySession.s1).toMatchObject({
        state: 'ready',
        changeSets: [{ changeSetId: 'cs1' }, { changeSetId: 'cs2' }],
      }),
    );
  });

  it('Rewind to here: a conflict opens the choice; the answer rewinds, opens the branch and its Changes panel', async () => {
    const { store, link } = setup({ openSession: 's1' });
    link.answer('session.rewind', (input) =>
      input.resolution === undefined
        ? { ok: true as const, result: { status: 'conflict' as const, files: ['c.txt'] } }
        : {
            ok: true as const,
            result: {
              status: 'rewound' as const,
              session: session({ sessionId: 'b1', title: 'First (rewound)' }),
              rewind: { ...changeSet('cs3'), origin: 'rewind' as const, files: [] },
            },
          },
    );
    link.answer('changes.list', () => ({ ok: true, result: { changeSets: [], unavailable: null } }));
    await store.getState().rewindTo('s1', 'u2');
    expect(store.getState().revertConflict).toEqual({
      kind: 'rewind',
      sessionId: 's1',
      itemId: 'u2',
      files: ['c.txt'],
    });
    expect(store.getState().selectedSessionId).toBe('s1');
    await store.getState().rewindTo('s1', 'u2', 'take_checkpoint');
    expect(link.callsOf('session.rewind')).toEqual([
      { sessionId: 's1', atItemId: 'u2', requestId: expect.any(String) },
      { sessionId: 's1', atItemId: 'u2', requestId: expect.any(String), resolution: 'take_checkpoint' },
    ]);
    expect(store.getState().revertConflict).toBeNull();
    expect(store.getState().selectedSessionId).toBe('b1');
    expect(store.getState().changesPanelFor).toBe('b1');
  });

  it('Rewind to here is previewed first: the plan is read (nothing rewound), a closed preview ignores a late answer', async () => {
    const { store, link } = setup({ openSession: 's1' });
    const plan = { hasWorkspace: true, files: [{ path: 'b.txt', action: 'delete' as const, changedSince: false }] };
    link.answer('session.rewindPlan', () => ({ ok: true, result: plan }));
    const reading = store.getState().previewRewind('s1', 'u2');
    expect(store.getState().rewindPreview).toEqual({ sessionId: 's1', itemId: 'u2', plan: { state: 'loading' } });
    await reading;
    expect(store.getState().rewindPreview).toEqual({ sessionId: 's1', itemId: 'u2', plan: { state: 'ready', plan } });
    expect(link.callsOf('session.rewindPlan')).toEqual([{ sessionId: 's1', atItemId: 'u2' }]);
    expect(link.callsOf('session.rewind')).toEqual([]);

    const late = store.getState().previewRewind('s1', 'u3');
    store.getState().closeRewindPreview();
    await late;
    expect(store.getState().rewindPreview).toBeNull();
    link.answer('session.rewindPlan', () => ({
      ok: false,
      error: { code: 'operation_unavailable', message: 'A later turn has no checkpoint.' },
    }));
    await store.getState().previewRewind('s1', 'u2');
    expect(store.getState().rewindPreview?.plan).toEqual({
      state: 'failed',
      message: 'A later turn has no checkpoint.',
    });
  });

  it('re-reads a loaded session’s changes when the host says they changed', async () => {
    const { store, link, frames } = setup({ openSession: 's1' });
    let changeSets: ListedChangeSet[] = [];
    link.answer('changes.list', () => ({ ok: true, result: { changeSets, unavailable: null } }));
    await store.getState().loadChanges('s1');
    changeSets = [changeSet('cs1')];
    link.push({ kind: 'changes.changed', sessionId: 's1', turnId: 't1' });
    frames.flush();
    await vi.waitFor(() =>
      expect(store.getState().changesBySession.s1).toMatchObject({
        state: 'ready',
        changeSets: [{ changeSetId: 'cs1' }],
      }),
    );
  });

  it('re-reads every loaded session’s changes when a worktree ends (its change sets may have lost their folder)', async () => {
    const { store, link, frames } = setup({ openSession: 's1' });
    let changeSets = [changeSet('cs1')];
    link.answer('changes.list', () => ({ ok: true, result: { changeSets, unavailable: null } }));
    await store.getState().loadChanges('s1');
    changeSets = [
      { ...changeSet('cs1'), workspaceGone: 'The worktree these changes were made in (cairn/x-1a2b) was discarded.' },
    ];
    const worktree = {
      worktreeId: 'w1',
      sessionId: 's2',
      repoRoot: '/repo',
      baseBranch: 'main',
      baseCommit: 'abc',
      branch: 'cairn/x-1a2b',
      path: '/data/worktrees/x',
      createdAt: 1,
    };
    link.push({ kind: 'worktree.changed', sessionId: 's2', worktree: { ...worktree, state: 'discarded', endedAt: 2 } });
    frames.flush();
    await vi.waitFor(() =>
      expect(store.getState().changesBySession.s1).toMatchObject({
        changeSets: [{ workspaceGone: expect.stringContaining('discarded') as string }],
      }),
    );
  });

  it('Show all loads the files after those listed, page by page, each writer once; a failed load keeps what is shown', async () => {
    const { store, link } = setup({ openSession: 's1' });
    const file = (index: number, writer: number) => ({
      path: `f${String(index).padStart(4, '0')}.txt`,
      change: 'created' as const,
      added: 1,
      removed: 0,
      writer,
    });
    const make = { kind: 'command' as const, command: 'make' };
    const write = { kind: 'file_tool' as const, tool: 'write_file' };
    const listed: ListedChangeSet = {
      ...changeSet('cs1'),
      files: [file(0, 0)],
      writers: [write],
      fileCount: FILES_PAGE + 2,
    };
    let failing = true;
    link.answer('changes.files', (input) =>
      failing
        ? { ok: false, error: { code: 'not_found', message: 'That change set does not exist in this session.' } }
        : {
            ok: true,
            // A page names its writers by its own indexes: here `make` is 0 and write_file 1.
            result: {
              files: Array.from({ length: Math.min(FILES_PAGE, listed.fileCount - input.offset) }, (_, index) =>
                file(input.offset + index, index % 2),
              ),
              writers: [make, write],
              fileCount: listed.fileCount,
            },
          },
    );
    await store.getState().loadChangeFiles('s1', listed);
    expect(store.getState().changeFiles.cs1).toEqual({
      files: listed.files,
      writers: listed.writers,
      loading: false,
      error: 'That change set does not exist in this session.',
    });
    failing = false;
    await store.getState().loadChangeFiles('s1', listed);
    await store.getState().loadChangeFiles('s1', listed);
    // Once all are shown, nothing more is asked.
    await store.getState().loadChangeFiles('s1', listed);
    expect(link.callsOf('changes.files')).toEqual([
      { sessionId: 's1', changeSetId: 'cs1', offset: 1 },
      { sessionId: 's1', changeSetId: 'cs1', offset: 1 },
      { sessionId: 's1', changeSetId: 'cs1', offset: FILES_PAGE + 1 },
    ]);
    const shown = store.getState().changeFiles.cs1;
    expect(shown?.files.map((item) => item.path)).toEqual(
      Array.from({ length: listed.fileCount }, (_, index) => file(index, 0).path),
    );
    expect(shown?.writers).toEqual([write, make]);
    expect(shown?.files.slice(0, 3).map((item) => shown.writers[item.writer])).toEqual([write, make, write]);
    expect(shown).toMatchObject({ loading: false, error: null });
  });

  it('loads an opened file’s diff once, on demand, and tries a failed load again', async () => {
    const { store, link } = setup({ openSession: 's1' });
    let fail = true;
    link.answer('changes.diff', () =>
      fail
        ? { ok: false, error: { code: 'not_found', message: 'gone' } }
        : { ok: true, result: { diff: '+A', cut: false } },
    );
    await store.getState().loadChangeDiff('s1', 'cs1', 'a.txt');
    expect(store.getState().changeDiffs[changeDiffKey('cs1', 'a.txt')]).toEqual({ state: 'failed', message: 'gone' });
    fail = false;
    await store.getState().loadChangeDiff('s1', 'cs1', 'a.txt');
    await store.getState().loadChangeDiff('s1', 'cs1', 'a.txt');
    expect(store.getState().changeDiffs[changeDiffKey('cs1', 'a.txt')]).toEqual({
      state: 'ready',
      diff: '+A',
      cut: false,
    });
    expect(link.callsOf('changes.diff')).toEqual([
      { sessionId: 's1', changeSetId: 'cs1', path: 'a.txt' },
      { sessionId: 's1', changeSetId: 'cs1', path: 'a.txt' },
    ]);
  });
});
