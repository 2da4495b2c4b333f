import type { SliceCreator } from './app-state';
import type { ShellState } from './reducers/shell-reducer';
import { applyShellList, applyShellRecord, EMPTY_SHELL } from './reducers/shell-reducer';

/** How many of a session's commands the Commands list reads. */
const LIST_LIMIT = 100;

export type ShellListStatus = 'loading' | 'ready' | 'failed';

/** Shell commands the agent ran (run_shell): their records, live output, and Stop. */
export interface ShellSlice {
  readonly shell: ShellState;
  /** Where each session's list of commands stands (absent: not read yet). */
  readonly shellLists: Readonly<Record<string, ShellListStatus>>;
  /** The session whose Commands panel is open. */
  readonly commandsPanelFor: string | null;
  /** Reads a session's commands (shell.list). */
  loadShellRuns(sessionId: string): Promise<void>;
  /** Reads a session's commands once per line to the host: again after a reconnect, which may have missed output. */
  ensureShellRuns(sessionId: string): void;
  /** Reads one command (shell.get), e.g. when its tool result names it but no record has arrived. */
  loadShellRun(shellRunId: string): Promise<void>;
  /** Stops a command: the host kills its whole process group. */
  killShellRun(shellRunId: string): Promise<void>;
  setCommandsPanel(sessionId: string | null): void;
}

export const createShellSlice: SliceCreator<ShellSlice> = (set, get, deps) => {
  const { link } = deps;
  /** The connection generation each session's list was read in. */
  const listedIn = new Map<string, number>();
  const reading = new Set<string>();

  return {
    shell: EMPTY_SHELL,
    shellLists: {},
    commandsPanelFor: null,

    async loadShellRuns(sessionId) {
      const generation = get().connection.generation;
      const resync = (listedIn.get(sessionId) ?? generation) < generation;
      listedIn.set(sessionId, generation);
      if (get().shellLists[sessionId] !== 'ready')
        set((state) => ({ shellLists: { ...state.shellLists, [sessionId]: 'loading' } }));
      const outcome = await link.invoke('shell.list', { sessionId, limit: LIST_LIMIT });
      get().flushEvents();
      if (!outcome.ok) {
        listedIn.delete(sessionId);
        set((state) => ({ shellLists: { ...state.shellLists, [sessionId]: 'failed' } }));
        return;
      }
      set((state) => ({
        shell: applyShellList(state.shell, sessionId, outcome.result.shellRuns, { resync }),
        shellLists: { ...state.shellLists, [sessionId]: 'ready' },
      }));
    },

    ensureShellRuns(sessionId) {
      const generation = get().connection.generation;
      if (listedIn.get(sessionId) === generation) return;
      void get().loadShellRuns(sessionId);
    },

    async loadShellRun(shellRunId) {
      if (reading.has(shellRunId)) return;
      reading.add(shellRunId);
      try {
        const outcome = await link.invoke('shell.get', { shellRunId });
        get().flushEvents();
        if (outcome.ok) set((state) => ({ shell: applyShellRecord(state.shell, outcome.result.shellRun) }));
      } finally {
        reading.delete(shellRunId);
      }
    },

    async killShellRun(shellRunId) {
      const outcome = await link.invoke('shell.kill', { shellRunId });
      if (!outcome.ok) {
        get().reportFailure(outcome.error);
        return;
      }
      get().flushEvents();
      set((state) => ({ shell: applyShellRecord(state.shell, outcome.result.shellRun) }));
    },

    setCommandsPanel(sessionId) {
      set({ commandsPanelFor: sessionId });
    },
  };
};
