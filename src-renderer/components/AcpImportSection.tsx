import { useMemo, useState } from 'react';
import type { AcpListedSession, AcpSessionListing } from '../../src-shared/acp-model';
import type { ConnectionRecord } from '../../src-shared/connection-model';
import { useAppStore, useStoreApi } from '../state/store-context';
import { Spinner } from './icons';

type Busy = 'listing' | 'more' | { importing: string } | null;

/**
 * Settings → Connections → an ACP agent → "Import from <agent>" (docs/acp.md "Import"): the agent's
 * own earlier sessions of a folder (`acp.sessions`, page by page), each imported as a Cairn session
 * with its history (`acp.import`), or opened when it already was.
 */
export function AcpImportSection({ connection }: { connection: ConnectionRecord }) {
  const store = useStoreApi();
  const link = useAppStore((state) => state.hostLink);
  const sessions = useAppStore((state) => state.sessions.byId);
  const folders = useMemo(
    () =>
      [
        ...new Set(
          Object.values(sessions).flatMap((session) => (session.workspacePath === null ? [] : [session.workspacePath])),
        ),
      ].slice(0, 50),
    [sessions],
  );
  const [cwd, setCwd] = useState(folders[0] ?? '');
  const [listing, setListing] = useState<AcpSessionListing | null>(null);
  const [busy, setBusy] = useState<Busy>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const headingId = `import-${connection.connectionId}`;

  const list = async (more: boolean) => {
    setBusy(more ? 'more' : 'listing');
    setProblem(null);
    const cursor = more ? listing?.nextCursor : null;
    const outcome = await link.invoke('acp.sessions', {
      connectionId: connection.connectionId,
      cwd: cwd.trim(),
      ...(cursor == null ? {} : { cursor }),
    });
    setBusy(null);
    if (!outcome.ok) {
      setProblem(outcome.error.message);
      return;
    }
    const page = outcome.result;
    setListing(more && listing !== null ? { ...page, sessions: [...listing.sessions, ...page.sessions] } : page);
  };

  const open = async (item: AcpListedSession) => {
    setBusy({ importing: item.acpSessionId });
    setProblem(null);
    const outcome = await link.invoke('acp.import', {
      connectionId: connection.connectionId,
      acpSessionId: item.acpSessionId,
      cwd: item.cwd,
      ...(item.title === null ? {} : { title: item.title }),
    });
    setBusy(null);
    if (!outcome.ok) {
      setProblem(outcome.error.message);
      return;
    }
    store.getState().closeSettings();
    store.getState().selectSession(outcome.result.session.sessionId);
  };

  const agent = listing?.agent ?? connection.name;
  return (
    <section className="settings-section" aria-labelledby={headingId} data-testid="acp-import">
      <h4 id={headingId}>Import from {agent}</h4>
      <p className="settings-note">
        The agent’s own earlier sessions of a folder (started in an editor or its own app) become Cairn sessions with
        their history, and go on in the same agent session.
      </p>
      <form
        className="section-row"
        onSubmit={(event) => {
          event.preventDefault();
          void list(false);
        }}
      >
        <label className="visually-hidden" htmlFor={`${headingId}-folder`}>
          Folder
        </label>
        <input
          id={`${headingId}-folder`}
          className="input acp-import-folder"
          placeholder="/home/you/project"
          list={`${headingId}-folders`}
          value={cwd}
          spellCheck={false}
          onChange={(event) => setCwd(event.target.value)}
        />
        <datalist id={`${headingId}-folders`}>
          {folders.map((folder) => (
            <option key={folder} value={folder} />
          ))}
        </datalist>
        <button type="submit" className="button" disabled={busy !== null || cwd.trim() === ''}>
          {busy === 'listing' ? <Spinner /> : null}
          Show sessions
        </button>
      </form>
      {busy === 'listing' ? (
        <p className="settings-note" role="status">
          Starting the agent to ask for its sessions…
        </p>
      ) : null}
      {problem === null ? null : (
        <p className="form-notice tone-error" role="alert">
          {problem}
        </p>
      )}
      {listing === null || busy === 'listing' ? null : !listing.offered ? (
        <p className="settings-note" data-testid="acp-import-not-offered">
          {listing.agent} does not offer its list of sessions (ACP <code>session/list</code>), so its sessions cannot be
          imported.
        </p>
      ) : listing.sessions.length === 0 ? (
        <p className="settings-note">{listing.agent} has no sessions of this folder.</p>
      ) : (
        <ul className="acp-import-list" aria-label={`${listing.agent}’s sessions`}>
          {listing.sessions.map((item) => (
            <li key={item.acpSessionId} className="acp-import-row">
              <div className="acp-import-text">
                <span className="acp-import-title">{item.title ?? 'Untitled session'}</span>
                <span className="acp-import-when">
                  {item.updatedAt === null
                    ? 'Last used: not said'
                    : `Last used ${new Date(item.updatedAt).toLocaleString()}`}
                </span>
              </div>
              <button
                type="button"
                className="button"
                disabled={busy !== null}
                onClick={() => void open(item)}
                aria-label={`${item.importedAs === null ? 'Import' : 'Open'} ${item.title ?? 'untitled session'}`}
              >
                {typeof busy === 'object' && busy?.importing === item.acpSessionId ? <Spinner /> : null}
                {item.importedAs === null ? 'Import' : 'Open'}
              </button>
            </li>
          ))}
        </ul>
      )}
      {listing?.nextCursor != null && busy !== 'listing' ? (
        <button type="button" className="button button-quiet" disabled={busy !== null} onClick={() => void list(true)}>
          {busy === 'more' ? <Spinner /> : null}
          More
        </button>
      ) : null}
    </section>
  );
}
