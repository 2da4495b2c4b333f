import { useEffect, useState } from 'react';
import { mcpStateLabel } from '../../forms/mcp-server-form';
import { useAppStore, useStoreApi } from '../../state/store-context';
import { PlusIcon, Spinner } from '../icons';
import { McpServerDetail } from './McpServerDetail';
import { McpServerEditor } from './McpServerEditor';

/** Settings → Tools (MCP): the person's MCP servers on the left, the chosen one (or the add form) on the right. */
export function McpServersPage() {
  const store = useStoreApi();
  const servers = useAppStore((state) => state.mcpServers);
  const loadError = useAppStore((state) => state.mcpLoadError);
  const [selected, setSelected] = useState<string | 'new' | null>(null);

  useEffect(() => {
    void store.getState().loadMcpServers();
  }, [store]);

  if (servers === null) {
    if (loadError !== null) return <p className="form-notice tone-error">{loadError}</p>;
    return (
      <div className="settings-loading">
        <Spinner label="Loading the MCP servers" />
      </div>
    );
  }
  const shown =
    selected === 'new'
      ? 'new'
      : (servers.find((server) => server.serverId === selected)?.serverId ?? servers[0]?.serverId ?? 'new');

  return (
    <div className="connections-page mcp-page">
      <div className="connections-side">
        <ul className="connection-list" aria-label="MCP servers">
          {servers.map((server) => {
            const label = mcpStateLabel(server);
            return (
              <li key={server.serverId}>
                <button
                  type="button"
                  className={`connection-row${shown === server.serverId ? ' is-selected' : ''}`}
                  aria-current={shown === server.serverId ? 'true' : undefined}
                  data-testid="mcp-server-row"
                  onClick={() => setSelected(server.serverId)}
                >
                  <span className="connection-row-top">
                    <span className="connection-row-name">{server.name}</span>
                  </span>
                  <span className="connection-row-meta">
                    <span>{server.transport === 'stdio' ? 'Local command' : 'Streamable HTTP'}</span>
                    <span
                      className={`connection-status tone-${label.tone}`}
                      data-testid="mcp-server-state"
                      data-state={server.status.state}
                    >
                      {label.text}
                    </span>
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
        <button
          type="button"
          className={`button add-connection${shown === 'new' ? ' is-selected' : ''}`}
          onClick={() => setSelected('new')}
        >
          <PlusIcon />
          Add server
        </button>
      </div>
      <div className="connections-main">
        {shown === 'new' ? (
          <>
            <McpServerEditor server={null} onSaved={(serverId) => setSelected(serverId)} />
            <p className="settings-note">
              MCP servers give the agent more tools. A <strong>local command</strong> runs on this computer (for example{' '}
              <code>npx -y @modelcontextprotocol/server-everything</code>
              ); a <strong>Streamable HTTP</strong> server is reached at its address. Tools that change things ask for
              permission in Ask mode; only tools the server marks read-only run in Explore.
            </p>
          </>
        ) : (
          <McpServerDetail key={shown} serverId={shown} onRemoved={() => setSelected(null)} />
        )}
      </div>
    </div>
  );
}
