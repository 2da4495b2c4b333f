import { lazy, Suspense, useState } from 'react';
import { splitFolderPath } from '../../format/folder-path';
import { useAppStore, useStoreApi } from '../../state/store-context';
import { PencilIcon, Spinner } from '../icons';
import { FolderIcon } from './workspace-icons';
import { retryingImport } from '../../platform/retrying-import';

/** The folder's editor (and its browser) loads when Change or Set folder first opens it. */
const FolderEditor = lazy(() =>
  retryingImport(() => import('./FolderEditor')).then((module) => ({ default: module.FolderEditor })),
);

/**
 * The session's workspace folder: shown as a path with Change, or edited as a path on the host, with
 * Browse: the desktop app's folder picker, or in a browser (which has none) a folder browser the
 * host serves. The host checks the folder; its refusal shows next to the field.
 */
export function WorkspaceFolder({ sessionId }: { sessionId: string }) {
  const path = useAppStore((state) => state.sessions.byId[sessionId]?.workspacePath ?? null);
  const archived = useAppStore((state) => state.sessions.byId[sessionId]?.archived ?? false);
  // A folder in a git repository can give the session a worktree of its own (read by the header's branch chip).
  const offerWorktree = useAppStore((state) => {
    const view = state.worktreeBySession[sessionId];
    return view !== undefined && view.status === null && view.canCreate;
  });
  const creatingWorktree = useAppStore((state) => state.worktreeBySession[sessionId]?.busy === 'create');
  const store = useStoreApi();
  const [editing, setEditing] = useState(false);

  if (editing)
    return (
      <Suspense fallback={<div className="workspace-folder" />}>
        <FolderEditor sessionId={sessionId} path={path} onDone={() => setEditing(false)} />
      </Suspense>
    );
  return (
    <div className="workspace-folder" data-testid="workspace-folder">
      <span className="workspace-folder-icon" aria-hidden="true">
        <FolderIcon />
      </span>
      {path === null ? (
        <span className="workspace-path is-none">No workspace folder</span>
      ) : (
        // Narrow, the folders above give way first: the folder's own name stays in sight, the whole path in the tooltip.
        <code className="workspace-path" title={path} data-testid="workspace-path">
          <span className="workspace-path-parent">{splitFolderPath(path).parent}</span>
          <span className="workspace-path-name">{splitFolderPath(path).name}</span>
        </code>
      )}
      {archived ? null : path === null ? (
        <button type="button" className="button button-small button-quiet" onClick={() => setEditing(true)}>
          Set folder
        </button>
      ) : (
        <button
          type="button"
          className="icon-button workspace-edit"
          aria-label="Change workspace folder"
          title="Change workspace folder"
          onClick={() => setEditing(true)}
        >
          <PencilIcon />
        </button>
      )}
      {archived || !offerWorktree ? null : (
        <button
          type="button"
          className="button button-small button-quiet worktree-offer"
          disabled={creatingWorktree}
          title="Work on a git branch of its own, in a worktree outside your checkout; merge it back when you choose"
          onClick={() => void store.getState().createWorktree(sessionId)}
        >
          {creatingWorktree ? <Spinner /> : null}
          Own worktree
        </button>
      )}
    </div>
  );
}
