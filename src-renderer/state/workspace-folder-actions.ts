import type { SliceCreator } from './app-state';
import { upsertSession } from './reducers/sessions-reducer';
import type { WorkspaceFolderActions } from './workspace-slice';

/** The workspace slice's folder actions (the folder editor and browser), loaded on the first call (see deferredActions). */
export const createWorkspaceFolderActions: SliceCreator<WorkspaceFolderActions> = (set, _get, deps) => ({
  async setWorkspaceFolder(sessionId, path) {
    const trimmed = path?.trim() ?? '';
    const outcome = await deps.link.invoke('session.configure', {
      sessionId,
      workspacePath: trimmed === '' ? null : trimmed,
    });
    if (!outcome.ok) return { ok: false, message: outcome.error.message };
    set((state) => ({ sessions: upsertSession(state.sessions, outcome.result.session) }));
    return { ok: true };
  },

  async pickWorkspaceFolder() {
    const outcome = await deps.link.invoke('workspace.pickFolder', {});
    return outcome.ok ? { ok: true, path: outcome.result.path } : { ok: false, message: outcome.error.message };
  },

  async listFolders(path, showHidden) {
    const outcome = await deps.link.invoke('workspace.folders', { ...(path === null ? {} : { path }), showHidden });
    return outcome.ok ? { ok: true, listing: outcome.result } : { ok: false, message: outcome.error.message };
  },
});
