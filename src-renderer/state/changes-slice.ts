import type { ChangeSetWithDiffs, ConflictResolution } from '../../src-shared/checkpoint-model';
import type { ChangeEvent } from '../../src-shared/events';
import type { SliceCreator } from './app-state';

export type ChangesList =
  | { readonly state: 'loading' }
  | { readonly state: 'ready'; readonly changeSets: readonly ChangeSetWithDiffs[]; readonly unavailable: string | null }
  | { readonly state: 'failed'; readonly message: string };

/** A revert or a rewind the host refused because the person changed these files since; they choose what to do. */
export type RevertConflict =
  | { readonly kind: 'revert'; readonly sessionId: string; readonly changeSetId: string; readonly path: string | null; readonly files: readonly string[] }
  | { readonly kind: 'rewind'; readonly sessionId: string; readonly itemId: string; readonly files: readonly string[] };

/** The Changes panel: each turn's file changes with diffs, and Revert file / Revert this turn. */
export interface ChangesSlice {
  readonly changesPanelFor: string | null;
  readonly changesBySession: Readonly<Record<string, ChangesList>>;
  readonly revertConflict: RevertConflict | null;
  /** The change set (or `changeSetId:path`, or a rewind's item id) being reverted now, so its button can say so. */
  readonly reverting: string | null;
  setChangesPanel(sessionId: string | null): void;
  loadChanges(sessionId: string): Promise<void>;
  /** Reverts a change set or one of its files; a conflict opens the choice, `resolution` answers it. */
  revertChanges(sessionId: string, changeSetId: string, path: string | null, resolution?: ConflictResolution): Promise<void>;
  /**
   * Rewind to here (the person's message `itemId`): files and conversation back to before its turn,
   * in a branch that opens with its Changes panel; a conflict opens the choice, `resolution` answers it.
   */
  rewindTo(sessionId: string, itemId: string, resolution?: ConflictResolution): Promise<void>;
  dismissRevertConflict(): void;
  noteChangesEvents(batch: readonly ChangeEvent[]): void;
}

export const createChangesSlice: SliceCreator<ChangesSlice> = (set, get, deps) => ({
  changesPanelFor: null,
  changesBySession: {},
  revertConflict: null,
  reverting: null,

  setChangesPanel(sessionId) {
    set({ changesPanelFor: sessionId });
  },

  async loadChanges(sessionId) {
    if (get().changesBySession[sessionId]?.state !== 'ready') set((state) => ({ changesBySession: { ...state.changesBySession, [sessionId]: { state: 'loading' } } }));
    const outcome = await deps.link.invoke('changes.list', { sessionId });
    const list: ChangesList = outcome.ok ? { state: 'ready', ...outcome.result } : { state: 'failed', message: outcome.error.message };
    set((state) => ({ changesBySession: { ...state.changesBySession, [sessionId]: list } }));
  },

  async revertChanges(sessionId, changeSetId, path, resolution) {
    if (get().reverting !== null) return;
    set({ reverting: path === null ? changeSetId : `${changeSetId}:${path}`, revertConflict: null });
    try {
      const outcome = await deps.link.invoke('changes.revert', { sessionId, changeSetId, ...(path === null ? {} : { path }), ...(resolution === undefined ? {} : { resolution }) });
      if (!outcome.ok) {
        get().showError(outcome.error.message);
        return;
      }
      const result = outcome.result;
      if (result.status === 'conflict') set({ revertConflict: { kind: 'revert', sessionId, changeSetId, path, files: result.files } });
      else if (result.status === 'nothing_to_revert') get().showInfo('Nothing to revert: those files already are as they were before.');
      else get().showInfo(`Reverted ${result.revert.files.length === 1 ? '1 file' : `${result.revert.files.length} files`}.`);
    } finally {
      set({ reverting: null });
    }
    await get().loadChanges(sessionId);
  },

  async rewindTo(sessionId, itemId, resolution) {
    if (get().reverting !== null) return;
    set({ reverting: itemId, revertConflict: null });
    try {
      const outcome = await deps.link.invoke('session.rewind', { sessionId, atItemId: itemId, requestId: deps.newId(), ...(resolution === undefined ? {} : { resolution }) });
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
      get().showInfo(`Rewound${files === 0 ? '' : `, ${files === 1 ? '1 file' : `${files} files`} put back`}. The later turns stay in the session you rewound from.`);
      get().selectSession(result.session.sessionId);
      if (result.rewind !== null) get().setChangesPanel(result.session.sessionId);
    } finally {
      set({ reverting: null });
    }
  },

  dismissRevertConflict() {
    set({ revertConflict: null });
  },

  noteChangesEvents(batch) {
    const loaded = get().changesBySession;
    const sessions = new Set(batch.flatMap((event) => (event.kind === 'changes.changed' && loaded[event.sessionId] !== undefined ? [event.sessionId] : [])));
    for (const sessionId of sessions) void get().loadChanges(sessionId);
  },
});
