import { useEffect, useState } from 'react';
import { useAppStore, useStoreApi } from '../../state/store-context';
import { CopyButton } from '../CopyButton';
import { Dialog } from '../Dialog';
import { Spinner } from '../icons';
import { DiffLines } from './DiffLines';
import { ChevronRightIcon } from './workspace-icons';

/**
 * The Changes panel's Worktree view: the session's branch and its diff against the base, Merge back
 * (a refused merge names the files), Open folder (its path, to copy), Discard worktree (confirmed);
 * without a worktree, "Work in its own worktree" where the folder is in a git repository.
 */
export function WorktreeSection({ sessionId }: { sessionId: string }) {
  const store = useStoreApi();
  const view = useAppStore((state) => state.worktreeBySession[sessionId]);
  const [showPath, setShowPath] = useState(false);
  const [confirmDiscard, setConfirmDiscard] = useState(false);

  useEffect(() => {
    void store.getState().loadWorktree(sessionId);
  }, [sessionId, store]);

  if (view === undefined) return null;
  const status = view.status;
  if (status === null) {
    if (!view.canCreate) return null;
    return (
      <div className="worktree-section" data-testid="worktree-section">
        <p className="change-set-note">
          Give this session a git worktree of its own, so its changes stay on a branch until you merge them back.
        </p>
        <button
          type="button"
          className="button button-small"
          disabled={view.busy !== null}
          onClick={() => void store.getState().createWorktree(sessionId)}
        >
          {view.busy === 'create' ? <Spinner /> : null}
          Work in its own worktree
        </button>
      </div>
    );
  }
  const { worktree } = status;
  const files = view.diff?.files ?? [];
  return (
    <div className="worktree-section" data-testid="worktree-section" aria-label="Worktree">
      <div className="change-set-header">
        <h3>
          Worktree <code className="branch-chip">{worktree.branch}</code>
          <span className="change-set-count">
            {' '}
            · from {worktree.baseBranch} · {status.ahead} ahead, {status.behind} behind ·{' '}
            {files.length === 1 ? '1 file' : `${files.length} files`}
          </span>
        </h3>
      </div>
      {view.conflict === null ? null : (
        <div className="session-notice worktree-conflict" role="alert" data-testid="worktree-conflict">
          <p>
            {view.conflict.reason === 'uncommitted'
              ? `Not merged: ${worktree.repoRoot} has uncommitted changes to files the merge would change. Commit or put them aside, then merge again.`
              : view.conflict.reason === 'merge'
                ? `Not merged: these files conflict with ${worktree.baseBranch}. Nothing in ${worktree.repoRoot} was changed. Bring ${worktree.baseBranch} into the worktree to resolve them there.`
                : 'These files have conflict markers in the worktree; resolve them there (or ask the agent to), then merge back.'}
          </p>
          <ul>
            {view.conflict.files.map((file) => (
              <li key={file}>
                <code>{file}</code>
              </li>
            ))}
          </ul>
        </div>
      )}
      <div className="worktree-actions">
        <button
          type="button"
          className="button button-small"
          disabled={view.busy !== null}
          onClick={() => void store.getState().mergeWorktree(sessionId)}
          data-testid="worktree-merge"
        >
          {view.busy === 'merge' ? <Spinner /> : null}
          Merge back into {worktree.baseBranch}
        </button>
        {view.conflict?.reason === 'merge' ? (
          <button
            type="button"
            className="button button-small button-quiet"
            disabled={view.busy !== null}
            onClick={() => void store.getState().updateWorktree(sessionId)}
          >
            {view.busy === 'update' ? <Spinner /> : null}
            Bring {worktree.baseBranch} in
          </button>
        ) : null}
        <button
          type="button"
          className="button button-small button-quiet"
          aria-expanded={showPath}
          onClick={() => setShowPath(!showPath)}
        >
          Open folder
        </button>
        <button
          type="button"
          className="button button-small button-quiet"
          disabled={view.busy !== null}
          onClick={() => setConfirmDiscard(true)}
        >
          Discard worktree
        </button>
      </div>
      {showPath ? (
        <p className="worktree-path" data-testid="worktree-path">
          <code>{worktree.path}</code>
          <CopyButton getText={() => worktree.path} />
        </p>
      ) : null}
      <ul className="change-files">
        {files.map((file) => (
          <WorktreeFileRow key={file.path} path={file.path} change={file.change} diff={file.diff} />
        ))}
      </ul>
      {confirmDiscard ? (
        <Dialog
          title="Discard this worktree?"
          onClose={() => setConfirmDiscard(false)}
          actions={
            <>
              <button type="button" className="button" onClick={() => setConfirmDiscard(false)}>
                Keep it
              </button>
              <button
                type="button"
                className="button button-danger"
                onClick={() => {
                  setConfirmDiscard(false);
                  void store.getState().discardWorktree(sessionId);
                }}
              >
                Discard worktree
              </button>
            </>
          }
        >
          <p>
            The folder and the branch <code>{worktree.branch}</code> are removed with every change in them that was not
            merged back. The session works in <code>{worktree.repoRoot}</code> again.
          </p>
        </Dialog>
      ) : null}
    </div>
  );
}

function WorktreeFileRow({ path, change, diff }: { path: string; change: string; diff: string }) {
  const [open, setOpen] = useState(false);
  return (
    <li className={`command-row change-file${open ? ' is-open' : ''}`} data-testid="worktree-file" data-path={path}>
      <div className="command-row-line">
        <button type="button" className="command-row-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
          <span className="tool-call-chevron" aria-hidden="true">
            <ChevronRightIcon />
          </span>
          <span className={`change-kind is-${change}`}>{change}</span>
          <code className="command-row-command" title={path}>
            {path}
          </code>
        </button>
      </div>
      {open ? (
        diff === '' ? (
          <p className="change-set-note">No text diff (binary file).</p>
        ) : (
          <DiffLines diff={diff} label={`Changes to ${path} since the base`} />
        )
      ) : null}
    </li>
  );
}
