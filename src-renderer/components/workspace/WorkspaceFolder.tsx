import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { splitFolderPath } from '../../format/folder-path';
import { inDesktopApp } from '../../platform/desktop-bridge';
import { useAppStore, useStoreApi } from '../../state/store-context';
import { PencilIcon, Spinner } from '../icons';
import { FolderBrowserDialog } from './FolderBrowserDialog';
import { FolderIcon } from './workspace-icons';

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

  if (editing) return <FolderEditor sessionId={sessionId} path={path} onDone={() => setEditing(false)} />;
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
        <button type="button" className="icon-button workspace-edit" aria-label="Change workspace folder" title="Change workspace folder" onClick={() => setEditing(true)}>
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

function FolderEditor({ sessionId, path, onDone }: { sessionId: string; path: string | null; onDone: () => void }) {
  const store = useStoreApi();
  const [draft, setDraft] = useState(path ?? '');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const errorId = useId();
  const canPick = inDesktopApp();
  const [browsing, setBrowsing] = useState(false);

  useEffect(() => {
    inputRef.current?.focus();
    inputRef.current?.select();
  }, []);

  const save = (value: string | null) => {
    setSaving(true);
    setError(null);
    void store
      .getState()
      .setWorkspaceFolder(sessionId, value)
      .then((outcome) => {
        setSaving(false);
        if (outcome.ok) onDone();
        else {
          setError(outcome.message);
          inputRef.current?.focus();
        }
      });
  };
  const browse = () => {
    if (!canPick) {
      setBrowsing(true);
      return;
    }
    setSaving(true);
    void store
      .getState()
      .pickWorkspaceFolder()
      .then((picked) => {
        setSaving(false);
        if (!picked.ok) setError(picked.message);
        else if (picked.path !== null) {
          setDraft(picked.path);
          save(picked.path);
        }
      });
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const value = draft.trim();
    if (value === (path ?? '')) onDone();
    else save(value === '' ? null : value);
  };

  return (
    <form
      className="workspace-folder is-editing"
      onSubmit={onSubmit}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        onDone();
      }}
    >
      <span className="workspace-folder-icon" aria-hidden="true">
        <FolderIcon />
      </span>
      <div className="workspace-field">
        <input
          ref={inputRef}
          className="input workspace-input"
          type="text"
          aria-label="Workspace folder"
          placeholder="/absolute/path/to/a/folder on the host"
          spellCheck={false}
          autoComplete="off"
          value={draft}
          disabled={saving}
          aria-invalid={error !== null}
          aria-describedby={error === null ? undefined : errorId}
          onChange={(event) => {
            setDraft(event.target.value);
            setError(null);
          }}
        />
        {error === null ? null : (
          <p id={errorId} className="workspace-error" role="alert" data-testid="workspace-error">
            {error}
          </p>
        )}
      </div>
      <button type="button" className="button button-small" disabled={saving} onClick={browse}>
        Browse…
      </button>
      {browsing ? (
        <FolderBrowserDialog
          start={draft}
          onClose={() => setBrowsing(false)}
          onChoose={(chosen) => {
            setBrowsing(false);
            setDraft(chosen);
            save(chosen);
          }}
        />
      ) : null}
      <button type="submit" className="button button-small button-primary" disabled={saving}>
        {saving ? <Spinner /> : null}
        Save
      </button>
      {path === null ? null : (
        <button
          type="button"
          className="button button-small button-quiet"
          disabled={saving}
          onClick={() => save(null)}
          title="The session works without a folder: no file or shell tools"
        >
          Remove
        </button>
      )}
      <button type="button" className="button button-small button-quiet" disabled={saving} onClick={onDone}>
        Cancel
      </button>
    </form>
  );
}
