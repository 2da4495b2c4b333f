import type { PermissionMode } from '../../src-shared/model';
import type { SliceCreator } from './app-state';
import { upsertSession } from './reducers/sessions-reducer';

export type WorkspaceOutcome = { readonly ok: true } | { readonly ok: false; readonly message: string };
export type PickedFolder = { readonly ok: true; readonly path: string | null } | { readonly ok: false; readonly message: string };

/** A session's workspace: the folder its file and shell tools work in, and its permission mode. */
export interface WorkspaceSlice {
  /** Sessions whose mode change is on its way to the host. */
  readonly modeChanging: Readonly<Record<string, PermissionMode>>;
  /** Changes what the agent may do without asking; it applies from the next tool call on. */
  setPermissionMode(sessionId: string, mode: PermissionMode): Promise<void>;
  /** Points the session's tools at a folder on the host (null: none). The host checks that the folder exists. */
  setWorkspaceFolder(sessionId: string, path: string | null): Promise<WorkspaceOutcome>;
  /** Opens the desktop app's folder picker (path null: the person cancelled); the headless host has none. */
  pickWorkspaceFolder(): Promise<PickedFolder>;
}

export const createWorkspaceSlice: SliceCreator<WorkspaceSlice> = (set, get, deps) => {
  const { link } = deps;
  const settle = (sessionId: string) =>
    set((state) => {
      if (state.modeChanging[sessionId] === undefined) return {};
      const modeChanging = { ...state.modeChanging };
      delete modeChanging[sessionId];
      return { modeChanging };
    });

  return {
    modeChanging: {},

    async setPermissionMode(sessionId, mode) {
      if (get().sessions.byId[sessionId]?.permissionMode === mode && get().modeChanging[sessionId] === undefined) return;
      set((state) => ({ modeChanging: { ...state.modeChanging, [sessionId]: mode } }));
      const outcome = await link.invoke('session.configure', { sessionId, permissionMode: mode });
      if (get().modeChanging[sessionId] === mode) settle(sessionId);
      if (!outcome.ok) {
        get().reportFailure(outcome.error);
        return;
      }
      set((state) => ({ sessions: upsertSession(state.sessions, outcome.result.session) }));
    },

    async setWorkspaceFolder(sessionId, path) {
      const trimmed = path?.trim() ?? '';
      const outcome = await link.invoke('session.configure', { sessionId, workspacePath: trimmed === '' ? null : trimmed });
      if (!outcome.ok) return { ok: false, message: outcome.error.message };
      set((state) => ({ sessions: upsertSession(state.sessions, outcome.result.session) }));
      return { ok: true };
    },

    async pickWorkspaceFolder() {
      const outcome = await link.invoke('workspace.pickFolder', {});
      return outcome.ok ? { ok: true, path: outcome.result.path } : { ok: false, message: outcome.error.message };
    },
  };
};
