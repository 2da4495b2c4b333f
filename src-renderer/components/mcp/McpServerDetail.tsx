import { EnabledSwitch } from '../EnabledSwitch';
import { useState } from 'react';
import type { McpServerRecord, McpToolInfo } from '../../../src-shared/mcp-model';
import { mcpStateLabel } from '../../forms/mcp-server-form';
import { useAppStore, useStoreApi } from '../../state/store-context';
import { CheckIcon, Spinner } from '../icons';
import { McpServerEditor } from './McpServerEditor';

/** One MCP server: on/off, its status and tools, its settings, Test, and Remove. */
export function McpServerDetail({ serverId, onRemoved }: { serverId: string; onRemoved: () => void }) {
  const store = useStoreApi();
  const server = useAppStore((state) => state.mcpServers?.find((known) => known.serverId === serverId));
  if (server === undefined) return null;
  return (
    <div className="connection-detail" data-testid="mcp-server-detail">
      <header className="connection-detail-header">
        <div>
          <h3 className="settings-heading">{server.name}</h3>
          <p className="settings-sub">{server.transport === 'stdio' ? 'Local command (stdio)' : 'Streamable HTTP'}</p>
        </div>
        <EnabledSwitch
          enabled={server.enabled}
          onChange={(enabled) => store.getState().setMcpServerEnabled(server.serverId, enabled)}
        />
      </header>
      <StatusSection server={server} />
      <McpServerEditor server={server} onSaved={() => {}} />
      <TestSection server={server} />
      <RemoveSection server={server} onRemoved={onRemoved} />
    </div>
  );
}

function StatusSection({ server }: { server: McpServerRecord }) {
  const label = mcpStateLabel(server);
  const { status } = server;
  return (
    <section className="settings-section" aria-labelledby={`mcp-status-${server.serverId}`}>
      <h4 id={`mcp-status-${server.serverId}`}>Status</h4>
      <p className={`verdict tone-${label.tone}`} role="status" data-testid="mcp-status" data-state={status.state}>
        <strong>{label.text}</strong>
        {status.serverInfo !== null ? (
          <span>
            {status.serverInfo.name} {status.serverInfo.version}
          </span>
        ) : null}
        {status.message !== null ? <span>{status.message}</span> : null}
      </p>
      {status.stderrTail !== null && status.state === 'failed' ? (
        <pre className="command-line mcp-stderr" aria-label="The server's last output">
          {status.stderrTail}
        </pre>
      ) : null}
      {status.tools.length > 0 ? <ToolList tools={status.tools} /> : null}
    </section>
  );
}

function ToolList({ tools }: { tools: readonly McpToolInfo[] }) {
  return (
    <ul className="mcp-tools" aria-label="Tools" data-testid="mcp-tools">
      {tools.map((tool) => (
        <li key={tool.name}>
          <code>{tool.name}</code>
          <span className={`mcp-tool-badge${tool.readOnly ? ' is-read-only' : ''}`}>
            {tool.readOnly ? 'read-only' : 'asks in Ask mode'}
          </span>
          {tool.description === '' ? null : <span className="mcp-tool-description">{tool.description}</span>}
        </li>
      ))}
    </ul>
  );
}

function TestSection({ server }: { server: McpServerRecord }) {
  const store = useStoreApi();
  const test = useAppStore((state) => state.mcpTests[server.serverId]);
  const testing = test?.state === 'testing';
  return (
    <section className="settings-section" aria-labelledby={`mcp-test-${server.serverId}`}>
      <h4 id={`mcp-test-${server.serverId}`}>Check the server</h4>
      <div className="section-row">
        <button
          type="button"
          className="button"
          disabled={testing}
          onClick={() => void store.getState().testMcpServer(server.serverId)}
        >
          {testing ? <Spinner /> : null}
          Test
        </button>
        <div className="verdict-slot" role="status" aria-live="polite">
          {test?.state === 'done' ? (
            test.result.ok ? (
              <p className="verdict tone-ok" data-testid="mcp-test-result">
                <CheckIcon />
                <strong>
                  {test.result.serverInfo?.name} {test.result.serverInfo?.version}
                </strong>
                <span>
                  {test.result.tools.length} tool{test.result.tools.length === 1 ? '' : 's'}
                </span>
              </p>
            ) : (
              <p className="verdict tone-bad" data-testid="mcp-test-result">
                <strong>Failed</strong>
                <span>{test.result.message}</span>
              </p>
            )
          ) : testing ? (
            <p className="verdict">Testing…</p>
          ) : (
            <p className="verdict tone-none">
              Starts the server apart from the agent’s connection and lists its tools.
            </p>
          )}
        </div>
      </div>
      {test?.state === 'done' && test.result.ok ? <ToolList tools={test.result.tools} /> : null}
      {test?.state === 'done' && !test.result.ok && test.result.stderrTail !== null ? (
        <pre className="command-line mcp-stderr" aria-label="The server's last output">
          {test.result.stderrTail}
        </pre>
      ) : null}
    </section>
  );
}

function RemoveSection({ server, onRemoved }: { server: McpServerRecord; onRemoved: () => void }) {
  const store = useStoreApi();
  const [confirming, setConfirming] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <section className="settings-section danger-zone" aria-labelledby={`mcp-remove-${server.serverId}`}>
      <h4 id={`mcp-remove-${server.serverId}`}>Remove</h4>
      {confirming ? (
        <div className="confirm-box" role="group" aria-label="Confirm removal">
          <p>Remove “{server.name}” and its stored secrets? Its tools leave every session.</p>
          <div className="section-row">
            <button type="button" className="button" autoFocus onClick={() => setConfirming(false)}>
              Cancel
            </button>
            <button
              type="button"
              className="button button-danger"
              disabled={busy}
              onClick={() => {
                setBusy(true);
                void store
                  .getState()
                  .removeMcpServer(server.serverId)
                  .then((outcome) => {
                    setBusy(false);
                    setConfirming(false);
                    if (outcome.ok) onRemoved();
                    else setMessage(outcome.message);
                  });
              }}
            >
              Remove server
            </button>
          </div>
        </div>
      ) : (
        <button type="button" className="button button-quiet" onClick={() => setConfirming(true)}>
          Remove this server…
        </button>
      )}
      {message === null ? null : (
        <p className="form-notice tone-error" role="alert">
          {message}
        </p>
      )}
    </section>
  );
}
