import type { SliceCreator } from './app-state';
import type { WorktreeActions, WorktreeView } from './worktree-slice';

const EMPTY: WorktreeView = {
  status: null,
  unavailable: null,
  diff: null,
  canCreate: false,
  conflict: null,
  busy: null,
};

/** The worktree slice's actions for the Changes panel, loaded on the first call (see deferredActions). */
export const createWorktreeActions: SliceCreator<WorktreeActions> = (set, get, deps) => {
  const patch = (sessionId: string, change: Partial<WorktreeView>) =>
    set((state) => ({
      worktreeBySession: {
        ...state.worktreeBySession,
        [sessionId]: { ...(state.worktreeBySession[sessionId] ?? EMPTY), ...change },
      },
    }));
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
  return {
    async loadWorktree(sessionId) {
      const outcome = await deps.link.invoke('worktree.status', { sessionId });
      if (!outcome.ok) return;
      const { status, unavailable } = outcome.result;
      const diff = status === null || !status.present ? null : await deps.link.invoke('worktree.diff', { sessionId });
      const folder = get().sessions.byId[sessionId]?.workspacePath ?? null;
      const check =
        status === null && unavailable === null && folder !== null
          ? await deps.link.invoke('worktree.check', { workspacePath: folder })
          : null;
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
        if (result.status === 'conflict')
          return patch(sessionId, { conflict: { reason: result.reason, files: result.files } });
        patch(sessionId, { conflict: null });
        get().showInfo(
          `Merged into ${result.worktree.baseBranch} (${result.mode === 'fast_forward' ? 'fast-forward' : 'merge commit'}). The session works in ${result.worktree.repoRoot} again.`,
        );
      }),

    updateWorktree: (sessionId) =>
      running(sessionId, 'update', async () => {
        const outcome = await deps.link.invoke('worktree.update', { sessionId });
        if (!outcome.ok) return get().showError(outcome.error.message);
        if (outcome.result.status === 'conflict')
          patch(sessionId, { conflict: { reason: 'update', files: outcome.result.files } });
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
  };
};
