import type { PermissionGrant } from '../../src-shared/interaction-model';
import type { PermissionMode, SandboxStatus } from '../../src-shared/model';
import type { FolderListing } from '../../src-shared/operations/folder-operations';
import type { PermissionGrantsResult, SandboxSettingsResult } from '../../src-shared/operations/permission-operations';
import type { SliceCreator } from './app-state';
import { deferredActions } from './deferred-actions';
import { upsertSession } from './reducers/sessions-reducer';

export type WorkspaceOutcome = { readonly ok: true } | { readonly ok: false; readonly message: string };
export type PickedFolder =
  { readonly ok: true; readonly path: string | null } | { readonly ok: false; readonly message: string };
export type ListedFolders =
  { readonly ok: true; readonly listing: FolderListing } | { readonly ok: false; readonly message: string };

/** A session's workspace: the folder its file and shell tools work in, and its permission mode. */
export interface WorkspaceSlice {
  /** Sessions whose mode change is on its way to the host. */
  readonly modeChanging: Readonly<Record<string, PermissionMode>>;
  /** The session whose switch to Full waits for the person to confirm it. */
  readonly confirmingFullFor: string | null;
  /** Each session's "Allow for this session" grants, once read. */
  readonly grants: Readonly<Record<string, readonly PermissionGrant[]>>;
  /** Each session's own allowed network hosts, once read. */
  readonly sessionHosts: Readonly<Record<string, readonly string[]>>;
  /** Changes what the agent may do without asking; it applies from the next tool call on. */
  setPermissionMode(sessionId: string, mode: PermissionMode): Promise<void>;
  /** The person picked a mode: Full (which runs everything unasked) first asks them to confirm. */
  choosePermissionMode(sessionId: string, mode: PermissionMode): void;
  /** Answers the Full confirmation: switch, or leave the mode as it is. */
  confirmFullMode(confirmed: boolean): Promise<void>;
  /** Reads the session's grants. */
  loadGrants(sessionId: string): Promise<void>;
  /** Takes a host off the session's network allowlist. */
  removeSessionHost(sessionId: string, host: string): Promise<void>;
  /** Takes back a tool's grant: its next call asks again. */
  revokeGrant(sessionId: string, toolName: string): Promise<void>;
  /** Points the session's tools at a folder on the host (null: none). The host checks that the folder exists. */
  setWorkspaceFolder(sessionId: string, path: string | null): Promise<WorkspaceOutcome>;
  /** Opens the desktop app's folder picker (path null: the person cancelled); the headless host has none. */
  pickWorkspaceFolder(): Promise<PickedFolder>;
  /** The sub-folders of a folder on the host (home when `path` is null), for choosing a workspace in a browser. */
  listFolders(path: string | null, showHidden: boolean): Promise<ListedFolders>;
  /** Whether the host can sandbox agents' commands (read once, from host.info); null until read. */
  readonly sandbox: SandboxStatus | null;
  loadSandboxStatus(): Promise<void>;
  /** Settings → Sandbox's lists, once read. */
  readonly sandboxSettings: SandboxSettingsResult | null;
  loadSandboxSettings(): Promise<void>;
  /** Saves the lists; the host's message when an entry is wrong (nothing saved then), else null. */
  saveSandboxSettings(settings: SandboxSettingsResult): Promise<string | null>;
  /** Sandbox notes the person closed, by `sandboxNoteKey` (read from storage on first use, kept across reloads). */
  readonly dismissedSandboxNotes: Readonly<Record<string, boolean>>;
  /** Reads whether the session's note for this mode was closed before. */
  readSandboxNote(sessionId: string, mode: PermissionMode): void;
  /** Closes the session's sandbox note for this mode (it shows again in the other mode, whose risk differs). */
  dismissSandboxNote(sessionId: string, mode: PermissionMode): void;
}

/** Where a closed sandbox note is remembered: per session and per mode. */
export function sandboxNoteKey(sessionId: string, mode: PermissionMode): string {
  return `cairn.sandbox-note-closed:${sessionId}:${mode}`;
}

/** Setting the folder, the desktop picker and the host's folder listing: their bodies load on the first call (workspace-folder-actions). */
export type WorkspaceFolderActions = Pick<WorkspaceSlice, 'setWorkspaceFolder' | 'pickWorkspaceFolder' | 'listFolders'>;

export const createWorkspaceSlice: SliceCreator<WorkspaceSlice> = (set, get, deps) => {
  const { link } = deps;
  const settle = (sessionId: string) =>
    set((state) => {
      if (state.modeChanging[sessionId] === undefined) return {};
      const modeChanging = { ...state.modeChanging };
      delete modeChanging[sessionId];
      return { modeChanging };
    });

  const setGrants = (sessionId: string, result: PermissionGrantsResult) =>
    set((state) => ({
      grants: { ...state.grants, [sessionId]: result.grants },
      sessionHosts: { ...state.sessionHosts, [sessionId]: result.hosts },
    }));

  return {
    ...deferredActions<WorkspaceFolderActions>(
      { setWorkspaceFolder: true, pickWorkspaceFolder: true, listFolders: true },
      () => import('./workspace-folder-actions').then((module) => module.createWorkspaceFolderActions(set, get, deps)),
    ),
    modeChanging: {},
    confirmingFullFor: null,
    grants: {},
    sessionHosts: {},
    dismissedSandboxNotes: {},
    sandbox: null,
    sandboxSettings: null,

    async loadSandboxSettings() {
      const outcome = await link.invoke('sandbox.settings.get', {});
      if (outcome.ok) set({ sandboxSettings: outcome.result });
    },

    async saveSandboxSettings(settings) {
      const outcome = await link.invoke('sandbox.settings.set', {
        allowedHosts: [...settings.allowedHosts],
        writableFolders: [...settings.writableFolders],
        deniedPaths: [...settings.deniedPaths],
      });
      if (!outcome.ok) return outcome.error.message;
      set({ sandboxSettings: outcome.result });
      return null;
    },

    async loadSandboxStatus() {
      if (get().sandbox !== null) return;
      const outcome = await link.invoke('host.info', {});
      if (outcome.ok) set({ sandbox: outcome.result.sandbox });
    },

    readSandboxNote(sessionId, mode) {
      const key = sandboxNoteKey(sessionId, mode);
      if (get().dismissedSandboxNotes[key] !== undefined) return;
      const closed = deps.draftStorage.read(key) === 'closed';
      set((state) => ({ dismissedSandboxNotes: { ...state.dismissedSandboxNotes, [key]: closed } }));
    },

    dismissSandboxNote(sessionId, mode) {
      const key = sandboxNoteKey(sessionId, mode);
      deps.draftStorage.write(key, 'closed');
      set((state) => ({ dismissedSandboxNotes: { ...state.dismissedSandboxNotes, [key]: true } }));
    },

    choosePermissionMode(sessionId, mode) {
      const current = get().modeChanging[sessionId] ?? get().sessions.byId[sessionId]?.permissionMode;
      if (mode === 'full' && current !== 'full') set({ confirmingFullFor: sessionId });
      else void get().setPermissionMode(sessionId, mode);
    },

    async confirmFullMode(confirmed) {
      const sessionId = get().confirmingFullFor;
      set({ confirmingFullFor: null });
      if (confirmed && sessionId !== null) await get().setPermissionMode(sessionId, 'full');
    },

    async loadGrants(sessionId) {
      const outcome = await link.invoke('permission.grants.list', { sessionId });
      if (outcome.ok) setGrants(sessionId, outcome.result);
    },

    async revokeGrant(sessionId, toolName) {
      const outcome = await link.invoke('permission.grants.revoke', { sessionId, toolName });
      if (!outcome.ok) {
        get().reportFailure(outcome.error);
        return;
      }
      setGrants(sessionId, outcome.result);
    },

    async removeSessionHost(sessionId, host) {
      const outcome = await link.invoke('permission.hosts.remove', { sessionId, host });
      if (!outcome.ok) {
        get().reportFailure(outcome.error);
        return;
      }
      setGrants(sessionId, outcome.result);
    },

    async setPermissionMode(sessionId, mode) {
      if (get().sessions.byId[sessionId]?.permissionMode === mode && get().modeChanging[sessionId] === undefined)
        return;
      set((state) => ({ modeChanging: { ...state.modeChanging, [sessionId]: mode } }));
      const outcome = await link.invoke('session.configure', { sessionId, permissionMode: mode });
      if (get().modeChanging[sessionId] === mode) settle(sessionId);
      if (!outcome.ok) {
        get().reportFailure(outcome.error);
        return;
      }
      set((state) => ({ sessions: upsertSession(state.sessions, outcome.result.session) }));
    },
  };
};
