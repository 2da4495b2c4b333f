import type { ChangeFilesPage, ChangeWriter, ListedFileChange } from '../../src-shared/checkpoint-model';
import { describeChangeSets, revertNotice } from '../format/change-set-names';
import type { SliceCreator } from './app-state';
import type { ChangeDiff, ChangesActions, ChangesList, ShownChangeFiles } from './changes-slice';

/** The key of a file's diff in `changeDiffs`. */
export const changeDiffKey = (changeSetId: string, path: string) => `${changeSetId}\u0000${path}`;

/** The changes slice's list and diff loading, revert and rewind, loaded on the first call (see deferredActions). */
export const createChangesActions: SliceCreator<ChangesActions> = (set, get, deps) => ({
  async loadChanges(sessionId) {
    if (get().changesBySession[sessionId]?.state !== 'ready')
      set((state) => ({ changesBySession: { ...state.changesBySession, [sessionId]: { state: 'loading' } } }));
    const outcome = await deps.link.invoke('changes.list', { sessionId });
    const list: ChangesList = outcome.ok
      ? { state: 'ready', ...outcome.result }
      : { state: 'failed', message: outcome.error.message };
    set((state) => ({ changesBySession: { ...state.changesBySession, [sessionId]: list } }));
  },

  async loadChangeFiles(sessionId, changeSet) {
    const { changeSetId } = changeSet;
    const shown = get().changeFiles[changeSetId] ?? {
      files: changeSet.files,
      writers: changeSet.writers,
      loading: false,
      error: null,
    };
    if (shown.loading || shown.files.length >= changeSet.fileCount) return;
    const put = (next: ShownChangeFiles) =>
      set((state) => ({ changeFiles: { ...state.changeFiles, [changeSetId]: next } }));
    put({ ...shown, loading: true, error: null });
    const outcome = await deps.link.invoke('changes.files', { sessionId, changeSetId, offset: shown.files.length });
    put(
      outcome.ok
        ? { ...appendFiles(shown, outcome.result), loading: false, error: null }
        : { ...shown, loading: false, error: outcome.error.message },
    );
  },

  async loadChangeDiff(sessionId, changeSetId, path) {
    const key = changeDiffKey(changeSetId, path);
    const known = get().changeDiffs[key];
    if (known !== undefined && known.state !== 'failed') return;
    set((state) => ({ changeDiffs: { ...state.changeDiffs, [key]: { state: 'loading' } } }));
    const outcome = await deps.link.invoke('changes.diff', { sessionId, changeSetId, path });
    const diff: ChangeDiff = outcome.ok
      ? { state: 'ready', ...outcome.result }
      : { state: 'failed', message: outcome.error.message };
    set((state) => ({ changeDiffs: { ...state.changeDiffs, [key]: diff } }));
  },

  async revertChanges(sessionId, changeSetId, path, resolution) {
    if (get().reverting !== null) return;
    set({ reverting: path === null ? changeSetId : `${changeSetId}:${path}`, revertConflict: null });
    try {
      const outcome = await deps.link.invoke('changes.revert', {
        sessionId,
        changeSetId,
        ...(path === null ? {} : { path }),
        ...(resolution === undefined ? {} : { resolution }),
      });
      if (!outcome.ok) {
        get().showError(outcome.error.message);
        return;
      }
      const result = outcome.result;
      if (result.status === 'conflict')
        set({ revertConflict: { kind: 'revert', sessionId, changeSetId, path, files: result.files } });
      else if (result.status === 'nothing_to_revert')
        get().showInfo('Nothing to revert: those files already are as they were before.');
      else {
        // What was reverted names the notice: a revert of a revert or a rewind is an undo ("Undid …").
        const list = get().changesBySession[sessionId];
        const target = list?.state === 'ready' ? describeChangeSets(list.changeSets).get(changeSetId) : undefined;
        get().showInfo(revertNotice(target, result.revert.files.length));
      }
    } finally {
      set({ reverting: null });
    }
    await get().loadChanges(sessionId);
  },

  async rewindTo(sessionId, itemId, resolution) {
    if (get().reverting !== null) return;
    set({ reverting: itemId, revertConflict: null });
    try {
      const outcome = await deps.link.invoke('session.rewind', {
        sessionId,
        atItemId: itemId,
        requestId: deps.newId(),
        ...(resolution === undefined ? {} : { resolution }),
      });
      if (!outcome.ok) {
        get().showError(outcome.error.message);
        return;
      }
      const result = outcome.result;
      if (result.status === 'conflict') {
        set({ revertConflict: { kind: 'rewind', sessionId, itemId, files: result.files } });
        return;
      }
      const files = result.rewind?.files.length ?? 0;
      get().showInfo(
        `Rewound${files === 0 ? '' : `, ${files === 1 ? '1 file' : `${files} files`} put back`}. The later turns stay in the session you rewound from.`,
      );
      get().selectSession(result.session.sessionId);
      if (result.rewind !== null) get().setChangesPanel(result.session.sessionId);
    } finally {
      set({ reverting: null });
    }
  },
});

/** The files shown so far with the next page after them, each writer once (a page names its writers by its own indexes). */
export function appendFiles(
  shown: { readonly files: readonly ListedFileChange[]; readonly writers: readonly ChangeWriter[] },
  page: ChangeFilesPage,
): { files: ListedFileChange[]; writers: ChangeWriter[] } {
  const writers = [...shown.writers];
  const keys = writers.map((writer) => JSON.stringify(writer));
  const indexes = page.writers.map((writer) => {
    const key = JSON.stringify(writer);
    const known = keys.indexOf(key);
    if (known !== -1) return known;
    keys.push(key);
    return writers.push(writer) - 1;
  });
  return {
    files: [...shown.files, ...page.files.map((file) => ({ ...file, writer: indexes[file.writer] ?? -1 }))],
    writers,
  };
}
