import { useId, useState } from 'react';
import type { McpServerRecord, McpTransport } from '../../../src-shared/mcp-model';
import type { McpServerDraft, McpSettingDraft } from '../../forms/mcp-server-form';
import { emptyMcpDraft, hasMcpProblems, mcpCreateInput, mcpDraftOf, mcpUpdateInput, validateMcpDraft } from '../../forms/mcp-server-form';
import { useStoreApi } from '../../state/store-context';
import { type ChoiceCard, ChoiceCards } from '../ChoiceCards';
import { TextField } from '../FieldFrame';
import { Spinner } from '../icons';

const TRANSPORTS: ReadonlyArray<ChoiceCard<McpTransport>> = [
  { value: 'stdio', label: 'Local command', blurb: 'Cairn starts the server on this computer and talks to it over stdio.' },
  { value: 'http', label: 'Streamable HTTP', blurb: 'A server that already runs, reached at its URL.' },
];

/**
 * The add/edit form of an MCP server. Secret variables and headers are write-only: a stored one
 * shows as "•••• stored" and is kept when its field is left empty.
 */
export function McpServerEditor({ server, onSaved }: { server: McpServerRecord | null; onSaved: (serverId: string) => void }) {
  const store = useStoreApi();
  const formId = useId();
  const [draft, setDraft] = useState<McpServerDraft>(() => (server === null ? emptyMcpDraft() : mcpDraftOf(server)));
  const [base, setBase] = useState(server?.revision ?? null);
  const [attempted, setAttempted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);

  // Saved elsewhere (or here): the form shows the record as it is now.
  if (server !== null && server.revision !== base) {
    setDraft(mcpDraftOf(server));
    setBase(server.revision);
  }

  const problems = validateMcpDraft(draft);
  const shown = attempted ? problems : {};
  const what = draft.transport === 'stdio' ? 'variable' : 'header';
  const change = (patch: Partial<McpServerDraft>) => {
    setDraft((current) => ({ ...current, ...patch }));
    setNotice(null);
  };
  const changeSetting = (index: number, patch: Partial<McpSettingDraft>) =>
    change({ settings: draft.settings.map((setting, at) => (at === index ? { ...setting, ...patch } : setting)) });

  async function submit() {
    if (hasMcpProblems(problems)) {
      setAttempted(true);
      return;
    }
    setBusy(true);
    const actions = store.getState();
    const outcome = server === null ? await actions.createMcpServer(mcpCreateInput(draft)) : await actions.updateMcpServer(mcpUpdateInput(server, draft));
    setBusy(false);
    if (!outcome.ok) {
      setNotice({ tone: 'error', text: outcome.message });
      return;
    }
    setNotice({ tone: 'ok', text: 'Saved.' });
    if (outcome.server !== undefined) onSaved(outcome.server.serverId);
  }

  return (
    <form
      className="connection-form mcp-form"
      aria-label={server === null ? 'Add an MCP server' : `Edit ${server.name}`}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {server === null ? (
        <>
          <h3 className="settings-heading">Add an MCP server</h3>
          <ChoiceCards
            legend="How Cairn reaches it"
            name={`${formId}-transport`}
            choices={TRANSPORTS}
            checked={draft.transport}
            onChoose={(transport) => change({ transport, settings: [] })}
          />
        </>
      ) : null}

      <TextField
        controlId={`${formId}-name`}
        label="Name"
        required
        help="Its tools reach the agent as name__tool."
        error={shown.name}
        type="text"
        maxLength={60}
        autoComplete="off"
        value={draft.name}
        onChange={(name) => change({ name })}
      />

      {draft.transport === 'stdio' ? (
        <>
          <TextField
            controlId={`${formId}-command`}
            label="Command"
            required
            help="The program to run, e.g. npx or node."
            error={shown.command}
            controlClassName="input mono"
            type="text"
            spellCheck={false}
            autoComplete="off"
            value={draft.command}
            onChange={(command) => change({ command })}
          />
          <TextField
            controlId={`${formId}-args`}
            label="Arguments"
            help="One per line."
            controlClassName="input mono"
            rows={3}
            spellCheck={false}
            value={draft.args}
            onChange={(args) => change({ args })}
          />
          <TextField
            controlId={`${formId}-cwd`}
            label="Working folder"
            help="Leave empty for Cairn’s own."
            controlClassName="input mono"
            type="text"
            spellCheck={false}
            autoComplete="off"
            value={draft.cwd}
            onChange={(cwd) => change({ cwd })}
          />
        </>
      ) : (
        <TextField
          controlId={`${formId}-url`}
          label="URL"
          required
          error={shown.url}
          type="url"
          inputMode="url"
          spellCheck={false}
          autoComplete="off"
          placeholder="https://example.com/mcp"
          value={draft.url}
          onChange={(url) => change({ url })}
        />
      )}

      <fieldset className="mcp-settings" aria-describedby={shown.settings === undefined ? undefined : `${formId}-settings-error`}>
        <legend className="field-label">{draft.transport === 'stdio' ? 'Environment variables' : 'Headers'}</legend>
        {draft.settings.map((setting, index) => (
          <div className="mcp-setting-row" key={index}>
            <input
              className="input mono"
              type="text"
              aria-label={`${what} ${index + 1} name`}
              placeholder={draft.transport === 'stdio' ? 'NAME' : 'Header-Name'}
              spellCheck={false}
              autoComplete="off"
              value={setting.name}
              onChange={(event) => changeSetting(index, { name: event.target.value })}
            />
            <input
              className="input mono"
              type={setting.secret ? 'password' : 'text'}
              aria-label={`${what} ${index + 1} value`}
              placeholder={setting.stored ? '•••• stored' : 'value'}
              spellCheck={false}
              autoComplete={setting.secret ? 'new-password' : 'off'}
              value={setting.value}
              onChange={(event) => changeSetting(index, { value: event.target.value })}
            />
            <label className="mcp-secret">
              <input type="checkbox" checked={setting.secret} onChange={(event) => changeSetting(index, { secret: event.target.checked, stored: false, value: '' })} />
              Secret
            </label>
            <button
              type="button"
              className="button button-quiet"
              aria-label={`Remove ${what} ${setting.name || index + 1}`}
              onClick={() => change({ settings: draft.settings.filter((_, at) => at !== index) })}
            >
              Remove
            </button>
          </div>
        ))}
        <button type="button" className="button button-quiet" onClick={() => change({ settings: [...draft.settings, { name: '', value: '', secret: false, stored: false }] })}>
          Add {what}
        </button>
        <p className="field-help">Secret values are stored encrypted on this machine and never shown again.</p>
        {shown.settings === undefined ? null : (
          <p className="field-error" id={`${formId}-settings-error`} role="alert">
            {shown.settings}
          </p>
        )}
      </fieldset>

      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? <Spinner /> : null}
          {server === null ? 'Add server' : 'Save'}
        </button>
        {notice === null ? null : (
          <p className={`form-notice tone-${notice.tone}`} role={notice.tone === 'error' ? 'alert' : 'status'}>
            {notice.text}
          </p>
        )}
      </div>
    </form>
  );
}
