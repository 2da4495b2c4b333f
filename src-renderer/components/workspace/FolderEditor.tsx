import { lazy, Suspense, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { inDesktopApp } from '../../platform/desktop-bridge';
import { retryingImport } from '../../platform/retrying-import';
import { useStoreApi } from '../../state/store-context';
import { Spinner } from '../icons';
import { FolderIcon } from './workspace-icons';

/** The folder browser loads when Browse… first opens it. */
const FolderBrowserDialog = lazy(() =>
  retryingImport(() => import('./FolderBrowserDialog')).then((module) => ({ default: module.FolderBrowserDialog })),
);

/**
 * The session's workspace folder being changed: a path on the host, with Browse (the desktop app's
 * folder picker, or in a browser a folder browser the host serves). The host's refusal shows next to the field.
 */
export function FolderEditor({
  sessionId,
  path,
  onDone,
}: {
  sessionId: string;
  path: string | null;
  onDone: () => void;
}) {
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
        <Suspense fallback={null}>
          <FolderBrowserDialog
            start={draft}
            onClose={() => setBrowsing(false)}
            onChoose={(chosen) => {
              setBrowsing(false);
              setDraft(chosen);
              save(chosen);
            }}
          />
        </Suspense>
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
