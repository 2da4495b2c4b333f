import { lazy, Suspense, useEffect } from 'react';
import { useAppStore, useStoreApi } from '../../state/store-context';
import { AlertIcon, CloseIcon } from '../icons';
import { selectRunsOnAcp, selectRunsOnCodex } from '../../state/selectors';
import { sandboxNoteKey } from '../../state/workspace-slice';
import { ChangesButton } from './ChangesButton';
import { CommandsButton } from './CommandsButton';
import { GrantsList } from './GrantsList';
import { PermissionModeControl } from './PermissionModeControl';
import { WorkspaceFolder } from './WorkspaceFolder';
import { retryingImport } from '../../platform/retrying-import';

/** The Commands and Changes panels load when first opened; the revert conflict dialog when a revert first meets one; the rewind preview at the first Rewind to here. */
const RewindPreviewDialog = lazy(() =>
  retryingImport(() => import('./RewindPreviewDialog')).then((module) => ({ default: module.RewindPreviewDialog })),
);
const RevertConflictDialog = lazy(() =>
  retryingImport(() => import('./RevertConflictDialog')).then((module) => ({ default: module.RevertConflictDialog })),
);
const CommandsPanel = lazy(() =>
  retryingImport(() => import('./CommandsPanel')).then((module) => ({ default: module.CommandsPanel })),
);
const ChangesPanel = lazy(() =>
  retryingImport(() => import('./ChangesPanel')).then((module) => ({ default: module.ChangesPanel })),
);

export const SANDBOX_NOTE = 'Shell commands are not sandboxed: an allowed command runs with your rights.';
export const AUTO_NOTE =
  'Commands run in the sandbox without asking: they write only in this folder and /tmp, cannot read your keys and logins (~/.ssh, cloud credentials) or Cairn’s data, and reach only the network hosts you allow.';
export const ASK_SANDBOX_NOTE =
  'An allowed command runs in the sandbox: it writes only in this folder and /tmp, and reaches only the network hosts you allow.';
export const CODEX_SANDBOX_NOTE = 'Codex runs commands in its own sandbox; what needs more asks you first.';
export const CODEX_FULL_NOTE = 'Codex runs commands without its sandbox, with your rights.';

/**
 * Under the session header: the folder the agent's file and shell tools work in, what it may do
 * without asking (the permission mode and, in Ask, the tools allowed for the session), and the
 * commands it ran.
 */
export function WorkspaceBar({ sessionId }: { sessionId: string }) {
  const store = useStoreApi();
  const mode = useAppStore((state) => state.sessions.byId[sessionId]?.permissionMode);
  const panelOpen = useAppStore((state) => state.commandsPanelFor === sessionId);
  const changesOpen = useAppStore((state) => state.changesPanelFor === sessionId);
  const revertConflict = useAppStore((state) => state.revertConflict !== null);
  const rewindPreview = useAppStore((state) => state.rewindPreview?.sessionId === sessionId);
  const generation = useAppStore((state) => state.connection.generation);
  const hasFolder = useAppStore((state) => (state.sessions.byId[sessionId]?.workspacePath ?? null) !== null);
  const noteClosed = useAppStore((state) =>
    mode === undefined ? true : (state.dismissedSandboxNotes[sandboxNoteKey(sessionId, mode)] ?? true),
  );
  const codex = useAppStore(selectRunsOnCodex(sessionId));
  const acp = useAppStore(selectRunsOnAcp(sessionId));
  const sandboxed = useAppStore((state) => state.sandbox?.available ?? false);

  // The commands (running ones count on the button) are read when the session opens, and after a reconnect.
  useEffect(() => {
    store.getState().ensureShellRuns(sessionId);
  }, [sessionId, store, generation]);
  useEffect(
    () => () => {
      if (store.getState().commandsPanelFor === sessionId) store.getState().setCommandsPanel(null);
      if (store.getState().changesPanelFor === sessionId) store.getState().setChangesPanel(null);
    },
    [sessionId, store],
  );

  useEffect(() => {
    if (mode !== undefined && mode !== 'explore') store.getState().readSandboxNote(sessionId, mode);
  }, [sessionId, mode, store]);
  useEffect(() => {
    void store.getState().loadSandboxStatus();
  }, [store, generation]);

  if (mode === undefined) return null;
  // Shell commands run only in a folder, and only in Ask or Full: the note says so there, until closed.
  // An ACP agent runs commands its own way, so Cairn's note about its shell does not apply.
  const noteShown = mode !== 'explore' && hasFolder && !noteClosed && !acp;
  return (
    <div className={`workspace-bar mode-is-${mode}`} data-testid="workspace-bar">
      <div className="workspace-bar-row">
        <WorkspaceFolder sessionId={sessionId} />
        <div className="workspace-bar-tools">
          <PermissionModeControl sessionId={sessionId} />
          <CommandsButton sessionId={sessionId} />
          {hasFolder ? <ChangesButton sessionId={sessionId} /> : null}
        </div>
      </div>
      {noteShown ? (
        <p className={`sandbox-note${mode === 'full' ? ' is-warning' : ''}`} data-testid="sandbox-note">
          {mode === 'full' ? <AlertIcon /> : null}
          <span>
            {mode === 'full' ? <strong>Full access:</strong> : null}
            {mode === 'full' ? ' ' : null}
            {codex
              ? mode === 'full'
                ? CODEX_FULL_NOTE
                : CODEX_SANDBOX_NOTE
              : mode === 'auto'
                ? AUTO_NOTE
                : mode === 'ask' && sandboxed
                  ? ASK_SANDBOX_NOTE
                  : SANDBOX_NOTE}
          </span>
          <button
            type="button"
            className="icon-button sandbox-note-close"
            aria-label="Close this note for this session"
            title="Close this note for this session"
            onClick={() => store.getState().dismissSandboxNote(sessionId, mode)}
          >
            <CloseIcon />
          </button>
        </p>
      ) : null}
      <GrantsList sessionId={sessionId} toolGrants={mode === 'ask'} />
      <Suspense fallback={null}>
        {panelOpen ? <CommandsPanel sessionId={sessionId} /> : null}
        {changesOpen && hasFolder ? <ChangesPanel sessionId={sessionId} /> : null}
      </Suspense>
      {/* Its own boundary: while it loads, the open Changes panel stays as it is. */}
      {revertConflict ? (
        <Suspense fallback={null}>
          <RevertConflictDialog />
        </Suspense>
      ) : null}
      {rewindPreview ? (
        <Suspense fallback={null}>
          <RewindPreviewDialog />
        </Suspense>
      ) : null}
    </div>
  );
}
