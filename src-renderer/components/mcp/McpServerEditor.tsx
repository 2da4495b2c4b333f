import { useId, useState } from 'react';
import type { McpServerRecord, McpTransport } from '../../../src-shared/mcp-model';
import type { McpServerDraft, McpServerProblems } from '../../forms/mcp-server-form';
import {
  emptyMcpDraft,
  hasMcpProblems,
  mcpCreateInput,
  mcpDraftOf,
  mcpUpdateInput,
  validateMcpDraft,
} from '../../forms/mcp-server-form';
import { useStoreApi } from '../../state/store-context';
import { type ChoiceCard, ChoiceCards } from '../ChoiceCards';
import { TextField } from '../FieldFrame';
import { Spinner } from '../icons';
import { McpSettingsFields } from './McpSettingsFields';

const TRANSPORTS: ReadonlyArray<ChoiceCard<McpTransport>> = [
  {
    value: 'stdio',
    label: 'Local command',
    blurb: 'Cairn starts the server on this computer and talks to it over stdio.',
  },
  { value: 'http', label: 'Streamable HTTP', blurb: 'A server that already runs, reached at its URL.' },
];

/**
 * The add/edit form of an MCP server. Secret variables and headers are write-only: a stored one
 * shows as "•••• stored" and is kept when its field is left empty.
 */
export function McpServerEditor({
  server,
  onSaved,
}: {
  server: McpServerRecord | null;
  onSaved: (serverId: string) => void;
}) {
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
  const change = (patch: Partial<McpServerDraft>) => {
    setDraft((current) => ({ ...current, ...patch }));
    setNotice(null);
  };
  async function submit() {
    if (hasMcpProblems(problems)) {
      setAttempted(true);
      return;
    }
    setBusy(true);
    const actions = store.getState();
    const outcome =
      server === null
        ? await actions.createMcpServer(mcpCreateInput(draft))
        : await actions.updateMcpServer(mcpUpdateInput(server, draft));
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

      <TransportFields formId={formId} draft={draft} problems={shown} change={change} />

      <McpSettingsFields formId={formId} draft={draft} error={shown.settings} change={change} />

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

/** How Cairn reaches the server: a local command (program, arguments, working folder) or an HTTP URL. */
function TransportFields({
  formId,
  draft,
  problems,
  change,
}: {
  formId: string;
  draft: McpServerDraft;
  problems: McpServerProblems;
  change: (patch: Partial<McpServerDraft>) => void;
}) {
  return draft.transport === 'stdio' ? (
    <>
      <TextField
        controlId={`${formId}-command`}
        label="Command"
        required
        help="The program to run, e.g. npx or node."
        error={problems.command}
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
      error={problems.url}
      type="url"
      inputMode="url"
      spellCheck={false}
      autoComplete="off"
      placeholder="https://example.com/mcp"
      value={draft.url}
      onChange={(url) => change({ url })}
    />
  );
}
