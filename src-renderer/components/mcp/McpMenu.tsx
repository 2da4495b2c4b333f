import { useEffect, useRef, useState } from 'react';
import { useAppStore, useStoreApi } from '../../state/store-context';
import { PlugIcon, Spinner } from '../icons';

/**
 * The composer's MCP menu (loaded once McpComposerMenu finds an enabled server): which servers are on
 * in this session, and their resources (attached to the draft as quoted text). Their prompts are in
 * the / menu, beside skills. Esc or a click elsewhere closes it.
 */
export function McpMenu({ sessionId }: { sessionId: string }) {
  const store = useStoreApi();
  const catalog = useAppStore((state) => state.mcpCatalogs[sessionId]);
  const sessionServers = useAppStore((state) => state.mcpSessionServers[sessionId]);
  const [open, setOpen] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const away = (event: MouseEvent) => {
      if (rootRef.current !== null && !rootRef.current.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', away);
    return () => document.removeEventListener('mousedown', away);
  }, [open]);

  const close = () => {
    setOpen(false);
    setMessage(null);
  };
  const done = (outcome: { ok: boolean; message?: string }) => {
    setBusy(false);
    if (outcome.ok) close();
    else setMessage(outcome.message ?? 'That did not work.');
  };

  return (
    <div
      className="mcp-menu"
      ref={rootRef}
      onKeyDown={(event) => event.key === 'Escape' && (event.stopPropagation(), close())}
    >
      <button
        type="button"
        className="button button-quiet mcp-menu-button"
        aria-expanded={open}
        aria-haspopup="dialog"
        title="MCP servers and resources"
        onClick={() => {
          if (open) return close();
          setOpen(true);
          void store.getState().loadMcpCatalog(sessionId);
          void store.getState().loadMcpSessionServers(sessionId);
        }}
      >
        <PlugIcon />
        <span>MCP</span>
      </button>
      {open ? (
        <div className="mcp-menu-panel" role="dialog" aria-label="MCP servers and resources" data-testid="mcp-menu">
          {sessionServers !== undefined ? (
            <fieldset className="mcp-session-servers">
              <legend className="mcp-menu-heading">Servers in this session</legend>
              {sessionServers
                .filter((server) => server.enabled)
                .map((server) => (
                  <label key={server.serverId} className="mcp-secret">
                    <input
                      type="checkbox"
                      checked={server.on}
                      onChange={(event) =>
                        void store
                          .getState()
                          .setMcpSessionServer(sessionId, server.serverId, event.target.checked)
                          .then((outcome) => !outcome.ok && setMessage(outcome.message))
                      }
                    />
                    {server.name}
                  </label>
                ))}
            </fieldset>
          ) : null}
          {catalog === undefined || catalog.state === 'loading' ? (
            <Spinner label="Asking the servers" />
          ) : catalog.state === 'failed' ? (
            <p className="form-notice tone-error">{catalog.message}</p>
          ) : (
            <>
              <p className="settings-note">Prompts: type / in the message box.</p>
              <p className="mcp-menu-heading">Attach a resource</p>
              {catalog.resources.length === 0 ? <p className="settings-note">No server offers resources.</p> : null}
              <ul className="mcp-menu-list">
                {catalog.resources.map((resource) => (
                  <li key={`${resource.serverId}/${resource.uri}`}>
                    <button
                      type="button"
                      className="mcp-menu-item"
                      disabled={busy}
                      onClick={() => {
                        setBusy(true);
                        void store.getState().attachMcpResource(sessionId, resource).then(done);
                      }}
                    >
                      <strong>{resource.name}</strong>
                      <span>
                        {resource.serverName} · {resource.uri}
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            </>
          )}
          {message === null ? null : (
            <p className="form-notice tone-error" role="alert">
              {message}
            </p>
          )}
        </div>
      ) : null}
    </div>
  );
}
