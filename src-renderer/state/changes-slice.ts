import type {
  ChangeWriter,
  ConflictResolution,
  FileDiff,
  ListedChangeSet,
  ListedFileChange,
  RewindPlan,
} from '../../src-shared/checkpoint-model';
import type { ChangeEvent } from '../../src-shared/events';
import type { SliceCreator } from './app-state';
import { deferredActions } from './deferred-actions';

export type ChangesList =
  | { readonly state: 'loading' }
  | { readonly state: 'ready'; readonly changeSets: readonly ListedChangeSet[]; readonly unavailable: string | null }
  | { readonly state: 'failed'; readonly message: string };

/** One file's diff in a change set, loaded when the file is opened. */
export type ChangeDiff =
  | { readonly state: 'loading' }
  | ({ readonly state: 'ready' } & FileDiff)
  | { readonly state: 'failed'; readonly message: string };

/**
 * A change set's files beyond those its listing carries, loaded by Show all (`changes.files`): the
 * files shown so far (the listing's first ones included), whether more are loading, and why the last
 * load failed. A complete change set's files never change, so what is loaded stays right.
 */
export interface ShownChangeFiles {
  readonly files: readonly ListedFileChange[];
  readonly writers: readonly ChangeWriter[];
  readonly loading: boolean;
  readonly error: string | null;
}

/** A revert or a rewind the host refused because the person changed these files since; they choose what to do. */
export type RevertConflict =
  | {
      readonly kind: 'revert';
      readonly sessionId: string;
      readonly changeSetId: string;
      readonly path: string | null;
      readonly files: readonly string[];
    }
  | { readonly kind: 'rewind'; readonly sessionId: string; readonly itemId: string; readonly files: readonly string[] };

/** Rewind to here, shown before it is done: what it would do to the files (`session.rewindPlan`), to confirm or cancel. */
export interface RewindPreview {
  readonly sessionId: string;
  readonly itemId: string;
  readonly plan:
    | { readonly state: 'loading' }
    | { readonly state: 'ready'; readonly plan: RewindPlan }
    | { readonly state: 'failed'; readonly message: string };
}

/** The Changes panel: each turn's file changes, each file's diff when opened, and Revert file / Revert this turn. */
export interface ChangesSlice {
  readonly changesPanelFor: string | null;
  readonly changesBySession: Readonly<Record<string, ChangesList>>;
  /** Diffs of the files opened in the panel (a complete change set's never change), by `changeDiffKey` (changes-actions). */
  readonly changeDiffs: Readonly<Record<string, ChangeDiff>>;
  /** The files Show all loaded, by change set. */
  readonly changeFiles: Readonly<Record<string, ShownChangeFiles>>;
  readonly revertConflict: RevertConflict | null;
  /** The change set (or `changeSetId:path`, or a rewind's item id) being reverted now, so its button can say so. */
  readonly reverting: string | null;
  readonly rewindPreview: RewindPreview | null;
  setChangesPanel(sessionId: string | null): void;
  loadChanges(sessionId: string): Promise<void>;
  /** Show all: loads a change set's next page of files after those shown (the listing carries its first few). */
  loadChangeFiles(sessionId: string, changeSet: ListedChangeSet): Promise<void>;
  /** Loads one file's diff, once (a failed load is tried again). */
  loadChangeDiff(sessionId: string, changeSetId: string, path: string): Promise<void>;
  /** Reverts a change set or one of its files; a conflict opens the choice, `resolution` answers it. */
  revertChanges(
    sessionId: string,
    changeSetId: string,
    path: string | null,
    resolution?: ConflictResolution,
  ): Promise<void>;
  /**
   * Rewind to here (the person's message `itemId`): files and conversation back to before its turn,
   * in a branch that opens with its Changes panel; a conflict opens the choice, `resolution` answers it.
   */
  rewindTo(sessionId: string, itemId: string, resolution?: ConflictResolution): Promise<void>;
  dismissRevertConflict(): void;
  /** Opens the preview of Rewind to here at the person's message `itemId` and reads its plan (nothing is written). */
  previewRewind(sessionId: string, itemId: string): Promise<void>;
  closeRewindPreview(): void;
  noteChangesEvents(batch: readonly ChangeEvent[]): void;
}

/** Loading lists and diffs, revert and rewind: their bodies load on the first call (changes-actions). */
export type ChangesActions = Pick<
  ChangesSlice,
  'loadChanges' | 'loadChangeFiles' | 'loadChangeDiff' | 'revertChanges' | 'rewindTo'
>;

export const createChangesSlice: SliceCreator<ChangesSlice> = (set, get, deps) => ({
  changesPanelFor: null,
  changesBySession: {},
  changeDiffs: {},
  changeFiles: {},
  revertConflict: null,
  reverting: null,
  rewindPreview: null,
  ...deferredActions<ChangesActions>(
    { loadChanges: true, loadChangeFiles: true, loadChangeDiff: true, revertChanges: true, rewindTo: true },
    () => import('./changes-actions').then((module) => module.createChangesActions(set, get, deps)),
  ),

  setChangesPanel(sessionId) {
    set({ changesPanelFor: sessionId });
  },

  dismissRevertConflict() {
    set({ revertConflict: null });
  },

  async previewRewind(sessionId, itemId) {
    set({ rewindPreview: { sessionId, itemId, plan: { state: 'loading' } } });
    const outcome = await deps.link.invoke('session.rewindPlan', { sessionId, atItemId: itemId });
    // A preview closed (or opened at another message) meanwhile keeps what it shows.
    const shown = get().rewindPreview;
    if (shown?.sessionId !== sessionId || shown.itemId !== itemId) return;
    const plan: RewindPreview['plan'] = outcome.ok
      ? { state: 'ready', plan: outcome.result }
      : { state: 'failed', message: outcome.error.message };
    set({ rewindPreview: { sessionId, itemId, plan } });
  },

  closeRewindPreview() {
    set({ rewindPreview: null });
  },

  noteChangesEvents(batch) {
    const loaded = get().changesBySession;
    // A worktree that ends takes its folder with it: every loaded list may hold change sets made there.
    const ended = batch.some((event) => event.kind === 'worktree.changed' && event.worktree.state !== 'active');
    const sessions = new Set(
      ended
        ? Object.keys(loaded)
        : batch.flatMap((event) =>
            event.kind === 'changes.changed' && loaded[event.sessionId] !== undefined ? [event.sessionId] : [],
          ),
    );
    for (const sessionId of sessions) void get().loadChanges(sessionId);
  },
});
