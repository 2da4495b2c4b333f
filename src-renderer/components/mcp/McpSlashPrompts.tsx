import { useEffect, useState } from 'react';
import type { McpPromptInfo } from '../../../src-shared/mcp-model';
import { useAppStore, useStoreApi } from '../../state/store-context';
import { focusComposer } from '../focus-targets';
import { Spinner } from '../icons';

/** The prompts that match what follows the "/": by name, title or server. */
export function matchingPrompts(prompts: readonly McpPromptInfo[], word: string): McpPromptInfo[] {
  const needle = word.toLowerCase();
  return prompts.filter(
    (prompt) => prompt.name.toLowerCase().startsWith(needle) || prompt.title.toLowerCase().includes(needle) || prompt.serverName.toLowerCase().includes(needle),
  );
}

/** Whether any MCP server is enabled, so the / menu asks for prompts (loading the list once when unknown). */
export function useMcpServersEnabled(open: boolean): boolean {
  const store = useStoreApi();
  const servers = useAppStore((state) => state.mcpServers);
  useEffect(() => {
    if (open && servers === null) void store.getState().loadMcpServers();
  }, [open, servers, store]);
  return (servers ?? []).some((server) => server.enabled);
}

/**
 * The MCP part of the composer's / menu: the session's servers' prompts, grouped under each server.
 * Choosing one puts its text in the draft in place of the "/…"; one with arguments first asks for
 * them in a small inline form (Enter inserts, Esc goes back).
 */
export function McpSlashPrompts({ sessionId, word }: { sessionId: string; word: string }) {
  const store = useStoreApi();
  const catalog = useAppStore((state) => state.mcpCatalogs[sessionId]);
  const [chosen, setChosen] = useState<McpPromptInfo | null>(null);
  const [args, setArgs] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const insert = (prompt: McpPromptInfo, values: Record<string, string>) => {
    const missing = prompt.arguments.find((argument) => argument.required && (values[argument.name] ?? '').trim() === '');
    if (missing !== undefined) return setMessage(`Fill in ${missing.name}.`);
    setBusy(true);
    setMessage(null);
    void store
      .getState()
      .insertMcpPrompt(sessionId, prompt, values, 'replace')
      .then((outcome) => {
        setBusy(false);
        if (!outcome.ok) setMessage(outcome.message);
        else focusComposer();
      });
  };

  if (catalog === undefined || catalog.state === 'loading') {
    return (
      <div className="slash-menu-heading">
        <Spinner label="Asking the MCP servers for their prompts" />
      </div>
    );
  }
  if (catalog.state === 'failed') return <p className="slash-menu-heading tone-error">{catalog.message}</p>;

  if (chosen !== null) {
    return (
      // Not a <form>: the menu sits inside the composer's form, and a nested submit would send the message.
      <div
        className="slash-prompt-form"
        role="group"
        aria-label={`Arguments of ${chosen.title}`}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            insert(chosen, args);
          } else if (event.key === 'Escape') {
            event.preventDefault();
            event.stopPropagation();
            setChosen(null);
          }
        }}
      >
        <div className="slash-menu-heading">
          {chosen.title} · MCP server {chosen.serverName}
        </div>
        {chosen.arguments.map((argument, index) => (
          <label key={argument.name} className="slash-prompt-argument">
            <span>
              {argument.name}
              {argument.required ? ' (required)' : ''}
            </span>
            <input
              className="input"
              type="text"
              autoFocus={index === 0}
              required={argument.required}
              placeholder={argument.description}
              value={args[argument.name] ?? ''}
              onChange={(event) => setArgs({ ...args, [argument.name]: event.target.value })}
            />
          </label>
        ))}
        {message === null ? null : (
          <p className="form-notice tone-error" role="alert">
            {message}
          </p>
        )}
        <div className="section-row">
          <button type="button" className="button button-quiet" onClick={() => setChosen(null)}>
            Back
          </button>
          <button type="button" className="button button-primary" disabled={busy} onClick={() => insert(chosen, args)}>
            Insert prompt
          </button>
        </div>
      </div>
    );
  }

  const prompts = matchingPrompts(catalog.prompts, word);
  const servers = [...new Set(prompts.map((prompt) => prompt.serverId))];
  return (
    <>
      {servers.map((serverId) => {
        const group = prompts.filter((prompt) => prompt.serverId === serverId);
        return (
          <div key={serverId} role="group" aria-label={`Prompts of the MCP server ${group[0]?.serverName ?? ''}`}>
            <div className="slash-menu-heading">MCP server {group[0]?.serverName}</div>
            {group.map((prompt) => (
              <button
                key={`${serverId}/${prompt.name}`}
                type="button"
                role="option"
                aria-selected="false"
                className="slash-menu-item"
                disabled={busy}
                onClick={() => {
                  setArgs({});
                  setMessage(null);
                  if (prompt.arguments.length > 0) setChosen(prompt);
                  else insert(prompt, {});
                }}
              >
                <code>/{prompt.name}</code>{' '}
                <span>
                  {prompt.title}
                  {prompt.description === '' ? '' : ` — ${prompt.description}`}
                </span>
              </button>
            ))}
          </div>
        );
      })}
      {message === null ? null : (
        <p className="form-notice tone-error" role="alert">
          {message}
        </p>
      )}
    </>
  );
}
