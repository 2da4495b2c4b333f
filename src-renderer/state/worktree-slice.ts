import type { ChangeEvent } from '../../src-shared/events';
import type { WorktreeDiff, WorktreeLeftover, WorktreeStatus } from '../../src-shared/worktree-model';
import type { SliceCreator } from './app-state';
import { deferredActions } from './deferred-actions';

/** What the Changes panel's Worktree view shows for a session. */
export interface WorktreeView {
  /** The session's worktree now, or null when it works in its folder directly. */
  readonly status: WorktreeStatus | null;
  /** Why worktrees cannot be used (no git), or null. */
  readonly unavailable: string | null;
  readonly diff: WorktreeDiff | null;
  /** Without a worktree: whether the session's folder is in a git repository, so it can have one. */
  readonly canCreate: boolean;
  /** The last merge back the host refused: the files in the way, and why. */
  readonly conflict: { readonly reason: 'merge' | 'uncommitted' | 'update'; readonly files: readonly string[] } | null;
  /** The operation under way, so its button can say so. */
  readonly busy: 'create' | 'merge' | 'update' | 'discard' | null;
}

/** Sessions in worktrees of their own: the branch, the diff against the base, merge back, open folder, discard. */
export interface WorktreeSlice {
  readonly worktreeBySession: Readonly<Record<string, WorktreeView>>;
  /** Worktrees no session works in (left by a crash or a removed session); null until read. Kept ones are left out. */
  readonly worktreeLeftovers: readonly WorktreeLeftover[] | null;
  loadWorktreeLeftovers(): Promise<void>;
  discardWorktreeLeftover(path: string): Promise<void>;
  /** Keeps a leftover worktree as it is: it is not offered again, across restarts. */
  keepWorktreeLeftover(path: string): Promise<void>;
  loadWorktree(sessionId: string): Promise<void>;
  createWorktree(sessionId: string): Promise<void>;
  mergeWorktree(sessionId: string): Promise<void>;
  /** Merges the base branch into the worktree, so a conflict is resolved there. */
  updateWorktree(sessionId: string): Promise<void>;
  discardWorktree(sessionId: string): Promise<void>;
  noteWorktreeEvents(batch: readonly ChangeEvent[]): void;
}

/** What the Changes panel's Worktree view reads and does: the bodies load on the first call (worktree-actions). */
export type WorktreeActions = Pick<
  WorktreeSlice,
  'loadWorktree' | 'createWorktree' | 'mergeWorktree' | 'updateWorktree' | 'discardWorktree'
>;

export const createWorktreeSlice: SliceCreator<WorktreeSlice> = (set, get, deps) => {
  const showLeftovers = (leftovers: readonly WorktreeLeftover[]) => set({ worktreeLeftovers: leftovers });
  return {
    worktreeBySession: {},
    worktreeLeftovers: null,
    ...deferredActions<WorktreeActions>(
      { loadWorktree: true, createWorktree: true, mergeWorktree: true, updateWorktree: true, discardWorktree: true },
      () => import('./worktree-actions').then((module) => module.createWorktreeActions(set, get, deps)),
    ),

    async loadWorktreeLeftovers() {
      const outcome = await deps.link.invoke('worktree.leftovers', {});
      showLeftovers(outcome.ok ? outcome.result.leftovers : []);
    },

    async discardWorktreeLeftover(path) {
      const outcome = await deps.link.invoke('worktree.discardLeftover', { path });
      if (!outcome.ok) return get().showError(outcome.error.message);
      showLeftovers(outcome.result.leftovers);
    },

    async keepWorktreeLeftover(path) {
      const outcome = await deps.link.invoke('worktree.keepLeftover', { path });
      if (!outcome.ok) return get().showError(outcome.error.message);
      showLeftovers(outcome.result.leftovers);
    },

    noteWorktreeEvents(batch) {
      const loaded = get().worktreeBySession;
      const sessions = new Set(
        batch.flatMap((event) =>
          (event.kind === 'worktree.changed' || event.kind === 'changes.changed') &&
          loaded[event.sessionId] !== undefined
            ? [event.sessionId]
            : [],
        ),
      );
      for (const sessionId of sessions) void get().loadWorktree(sessionId);
      // A removed session leaves its worktree behind: the notice offering to discard or keep it shows at once, not after a reload.
      if (get().worktreeLeftovers !== null && batch.some((event) => event.kind === 'session.removed'))
        void get().loadWorktreeLeftovers();
    },
  };
};
