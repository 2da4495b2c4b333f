import type { ChangeEvent } from '../../src-shared/events';
import type { WorktreeDiff, WorktreeLeftover, WorktreeStatus } from '../../src-shared/worktree-model';
import type { SliceCreator } from './app-state';

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

const EMPTY: WorktreeView = { status: null, unavailable: null, diff: null, canCreate: false, conflict: null, busy: null };

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

export const createWorktreeSlice: SliceCreator<WorktreeSlice> = (set, get, deps) => {
  const patch = (sessionId: string, change: Partial<WorktreeView>) =>
    set((state) => ({ worktreeBySession: { ...state.worktreeBySession, [sessionId]: { ...(state.worktreeBySession[sessionId] ?? EMPTY), ...change } } }));
  const running = async (sessionId: string, busy: NonNullable<WorktreeView['busy']>, work: () => Promise<void>) => {
    if ((get().worktreeBySession[sessionId]?.busy ?? null) !== null) return;
    patch(sessionId, { busy });
    try {
      await work();
    } finally {
      patch(sessionId, { busy: null });
    }
    await get().loadWorktree(sessionId);
  };
  const showLeftovers = (leftovers: readonly WorktreeLeftover[]) => set({ worktreeLeftovers: leftovers });
  return {
    worktreeBySession: {},
    worktreeLeftovers: null,

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

    async loadWorktree(sessionId) {
      const outcome = await deps.link.invoke('worktree.status', { sessionId });
      if (!outcome.ok) return;
      const { status, unavailable } = outcome.result;
      const diff = status === null || !status.present ? null : await deps.link.invoke('worktree.diff', { sessionId });
      const folder = get().sessions.byId[sessionId]?.workspacePath ?? null;
      const check = status === null && unavailable === null && folder !== null ? await deps.link.invoke('worktree.check', { workspacePath: folder }) : null;
      patch(sessionId, {
        status,
        unavailable,
        diff: diff?.ok === true ? diff.result : null,
        canCreate: check?.ok === true && check.result.available,
        ...(status === null ? { conflict: null } : {}),
      });
    },

    createWorktree: (sessionId) =>
      running(sessionId, 'create', async () => {
        const outcome = await deps.link.invoke('worktree.create', { sessionId });
        if (!outcome.ok) get().showError(outcome.error.message);
        else get().showInfo(`This session now works in its own worktree, on ${outcome.result.worktree.branch}.`);
      }),

    mergeWorktree: (sessionId) =>
      running(sessionId, 'merge', async () => {
        const outcome = await deps.link.invoke('worktree.merge', { sessionId });
        if (!outcome.ok) return get().showError(outcome.error.message);
        const result = outcome.result;
        if (result.status === 'conflict') return patch(sessionId, { conflict: { reason: result.reason, files: result.files } });
        patch(sessionId, { conflict: null });
        get().showInfo(
          `Merged into ${result.worktree.baseBranch} (${result.mode === 'fast_forward' ? 'fast-forward' : 'merge commit'}). The session works in ${result.worktree.repoRoot} again.`,
        );
      }),

    updateWorktree: (sessionId) =>
      running(sessionId, 'update', async () => {
        const outcome = await deps.link.invoke('worktree.update', { sessionId });
        if (!outcome.ok) return get().showError(outcome.error.message);
        if (outcome.result.status === 'conflict') patch(sessionId, { conflict: { reason: 'update', files: outcome.result.files } });
        else {
          patch(sessionId, { conflict: null });
          get().showInfo('The base branch is merged into the worktree.');
        }
      }),

    discardWorktree: (sessionId) =>
      running(sessionId, 'discard', async () => {
        const outcome = await deps.link.invoke('worktree.discard', { sessionId });
        if (!outcome.ok) return get().showError(outcome.error.message);
        patch(sessionId, { conflict: null });
        get().showInfo(`Discarded the worktree and its branch ${outcome.result.worktree.branch}.`);
      }),

    noteWorktreeEvents(batch) {
      const loaded = get().worktreeBySession;
      const sessions = new Set(
        batch.flatMap((event) => ((event.kind === 'worktree.changed' || event.kind === 'changes.changed') && loaded[event.sessionId] !== undefined ? [event.sessionId] : [])),
      );
      for (const sessionId of sessions) void get().loadWorktree(sessionId);
    },
  };
};
