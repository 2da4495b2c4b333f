import type { SliceCreator } from './app-state';
import type { CodexActions } from './codex-slice';

/** Force stop and the thread choice, loaded on the first call (see deferredActions). */
export const createCodexActions: SliceCreator<CodexActions> = (set, get, deps) => ({
  async forceStopCodex(sessionId, resumeTurnId) {
    const outcome = await deps.link.invoke('codex.forceStop', { sessionId });
    if (!outcome.ok) return get().reportFailure(outcome.error);
    if (!outcome.result.stopped) {
      return get().reportFailure({
        code: 'operation_unavailable',
        message: 'The old Codex process still could not be confirmed stopped. Try again in a moment.',
      });
    }
    await get().loadCodexStatus(sessionId);
    if (resumeTurnId !== undefined) await get().resumeTurn(sessionId, resumeTurnId);
  },

  async chooseCodexThread(sessionId, threadId, choice) {
    const outcome = await deps.link.invoke('codex.chooseThread', { sessionId, threadId, choice });
    if (!outcome.ok) return get().reportFailure(outcome.error);
    set((state) => ({
      codexThreadProblems: { ...state.codexThreadProblems, [sessionId]: outcome.result.threadProblem },
    }));
  },
});
