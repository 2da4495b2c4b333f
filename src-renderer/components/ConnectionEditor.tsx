import { useEffect, useId, useRef, useState } from 'react';
import type { ConnectionRecord, ProviderType } from '../../src-shared/connection-model';
import { PROVIDER_TYPES } from '../../src-shared/connection-model';
import type { ConnectionDraft, ConnectionField, ConnectionProblems } from '../forms/connection-form';
import {
  ACP_AGENT_CHOICES,
  createInput,
  draftOf,
  emptyDraft,
  hasProblems,
  PROVIDERS,
  updateInput,
  validateConnectionDraft,
  withAcpAgent,
  withProvider,
} from '../forms/connection-form';
import { useStoreApi } from '../state/store-context';
import { AcpAgentInstall } from './AcpAgentInstall';
import { FieldFrame } from './FieldFrame';
import { Spinner } from './icons';

type Notice = { readonly tone: 'ok' | 'error'; readonly text: string } | null;

/**
 * The add/edit form of a connection: provider (when adding), name, base URL and API key. The key is
 * write-only: a stored one shows as "•••• stored" and can be replaced or removed, never read.
 */
export function ConnectionEditor({ connection }: { connection: ConnectionRecord | null }) {
  const store = useStoreApi();
  const formId = useId();
  const [draft, setDraft] = useState<ConnectionDraft>(() => (connection === null ? emptyDraft() : draftOf(connection)));
  const [base, setBase] = useState(connection);
  const [attempted, setAttempted] = useState(false);
  const [touched, setTouched] = useState<ReadonlySet<ConnectionField>>(new Set());
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const noticeRef = useRef<HTMLParagraphElement>(null);
  // A refused add or save says why where focus is: the Submit button went disabled while it waited.
  useEffect(() => {
    if (notice?.tone === 'error') noticeRef.current?.focus();
  }, [notice]);

  // The record changed under the form (a save, another window): an untouched form follows it. A form
  // being edited keeps the revision it started from, so saving over a newer record is refused (and said).
  if (connection !== base && (base === null || connection === null || sameDraft(draft, draftOf(base)))) {
    if (connection !== null) setDraft(draftOf(connection));
    setBase(connection);
  }

  const problems = validateConnectionDraft(draft, { requireKey: connection === null });
  const shown: ConnectionProblems = attempted ? problems : Object.fromEntries(Object.entries(problems).filter(([field]) => touched.has(field as ConnectionField)));
  const adding = connection === null;
  const provider = PROVIDERS[draft.providerType];
  /** The agent of an ACP connection, when it is one Cairn knows (its key and base URL fields are the agent's). */
  const acpPreset = draft.providerType === 'acp' && draft.acpAgentKind !== 'custom' ? ACP_AGENT_CHOICES[draft.acpAgentKind] : null;
  const actions = store.getState();

  const change = (patch: Partial<ConnectionDraft>) => {
    setDraft((current) => ({ ...current, ...patch }));
    setNotice(null);
  };
  const touch = (field: ConnectionField) => setTouched((current) => new Set(current).add(field));

  async function submit() {
    if (hasProblems(problems)) {
      setAttempted(true);
      // The invalid markers render with this state change; focus the first one once they are there.
      requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    setBusy(true);
    if (connection === null) {
      const created = await actions.createConnection(createInput(draft));
      setBusy(false);
      if (!created.ok) {
        setNotice({ tone: 'error', text: created.message });
        return;
      }
      actions.openSettings({ tab: 'connections', connectionId: created.connection.connectionId });
      // A new connection's first useful step: read what models it offers.
      void actions.fetchModels(created.connection.connectionId);
      return;
    }
    const input = updateInput(base ?? connection, draft);
    if (input === null) {
      setBusy(false);
      setNotice({ tone: 'ok', text: 'Nothing to save.' });
      return;
    }
    const outcome = await actions.updateConnection(input);
    setBusy(false);
    if (outcome.ok) setNotice({ tone: 'ok', text: 'Saved.' });
    else setNotice({ tone: 'error', text: outcome.message });
    // Saved, or refused as stale (the catalog was re-read): the form shows the record as it is now.
    if (outcome.ok || outcome.conflict) setBase(null);
  }

  async function removeKey() {
    if (connection === null) return;
    setBusy(true);
    const outcome = await actions.updateConnection({ connectionId: connection.connectionId, expectedRevision: connection.revision, apiKey: null });
    setBusy(false);
    if (!outcome.ok && outcome.conflict) setBase(null);
    setNotice(outcome.ok ? { tone: 'ok', text: 'The stored key was removed.' } : { tone: 'error', text: outcome.message });
  }

  return (
    <form
      ref={formRef}
      className="connection-form"
      aria-label={adding ? 'Add a connection' : `Edit ${connection.name}`}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {adding ? (
        <>
          <h3 className="settings-heading">Add a connection</h3>
          <fieldset className="provider-choice">
            <legend className="field-label">Provider</legend>
            <div className="provider-options">
              {PROVIDER_TYPES.map((type) => (
                <label key={type} className={`provider-option${draft.providerType === type ? ' is-checked' : ''}`}>
                  <input
                    type="radio"
                    name={`${formId}-provider`}
                    value={type}
                    checked={draft.providerType === type}
                    onChange={() => {
                      setDraft((current) => withProvider(current, type as ProviderType));
                      setNotice(null);
                    }}
                  />
                  <span className="provider-option-name">{PROVIDERS[type].label}</span>
                  <span className="provider-option-blurb">{PROVIDERS[type].blurb}</span>
                </label>
              ))}
            </div>
          </fieldset>
        </>
      ) : null}

      {draft.providerType === 'acp' ? (
        <fieldset className="provider-choice">
          <legend className="field-label">Agent</legend>
          <div className="provider-options">
            {(['claude', 'gemini', 'opencode', 'custom'] as const).map((kind) => (
              <label key={kind} className={`provider-option${draft.acpAgentKind === kind ? ' is-checked' : ''}`}>
                <input
                  type="radio"
                  name={`${formId}-acp-agent`}
                  value={kind}
                  checked={draft.acpAgentKind === kind}
                  onChange={() => {
                    setDraft((current) => (adding ? withAcpAgent(current, kind) : { ...current, acpAgentKind: kind }));
                    setNotice(null);
                  }}
                />
                <span className="provider-option-name">{ACP_AGENT_CHOICES[kind].label}</span>
                <span className="provider-option-blurb">{ACP_AGENT_CHOICES[kind].blurb}</span>
              </label>
            ))}
          </div>
        </fieldset>
      ) : null}
      {draft.providerType === 'acp' && draft.acpAgentKind !== 'custom' ? <AcpAgentInstall kind={draft.acpAgentKind} /> : null}

      <FieldFrame controlId={`${formId}-name`} label="Name" required error={shown.name}>
        {(aria) => (
          <input
            {...aria}
            className="input"
            type="text"
            value={draft.name}
            maxLength={120}
            autoComplete="off"
            onChange={(event) => change({ name: event.target.value })}
            onBlur={() => touch('name')}
          />
        )}
      </FieldFrame>

      {draft.providerType === 'acp' && acpPreset === null ? null : (
        <FieldFrame
          controlId={`${formId}-base-url`}
          label="Base URL"
          required={draft.providerType === 'openai_compatible' || acpPreset?.needsServer === true}
          help={
            acpPreset?.baseUrlHelp ??
            provider.baseUrlHelp ??
            (provider.defaultBaseUrl === null ? 'The server’s OpenAI-style address, usually ending in /v1.' : `Leave empty for ${provider.label}’s own address.`)
          }
          error={shown.baseUrl}
        >
          {(aria) => (
            <input
              {...aria}
              className="input"
              type="url"
              inputMode="url"
              spellCheck={false}
              autoComplete="off"
              placeholder={provider.defaultBaseUrl ?? 'http://127.0.0.1:1234/v1'}
              value={draft.baseUrl}
              onChange={(event) => change({ baseUrl: event.target.value })}
              onBlur={() => touch('baseUrl')}
            />
          )}
        </FieldFrame>
      )}

      {provider.keyNeeded === 'none' && acpPreset === null && !connection?.hasApiKey ? null : (
        <FieldFrame
          controlId={`${formId}-api-key`}
          label="API key"
          required={adding && provider.keyNeeded === 'required'}
          help={
            connection?.hasApiKey
              ? 'A key is stored. Type a new one to replace it. Stored keys are encrypted and never shown again.'
              : (acpPreset?.keyHelp ?? provider.keyHelp) !== undefined
                ? `${acpPreset?.keyHelp ?? provider.keyHelp ?? ''} Stored encrypted; never shown again.`
                : provider.keyNeeded === 'optional'
                  ? 'Only if the server asks for one. Stored encrypted; never shown again.'
                  : 'Stored encrypted on this machine; never shown again.'
          }
          error={shown.apiKey}
        >
          {(aria) => (
            <div className="key-row">
              <input
                {...aria}
                className="input"
                type="password"
                autoComplete="new-password"
                spellCheck={false}
                placeholder={connection?.hasApiKey ? '•••• stored' : provider.keyNeeded === 'optional' ? 'Optional' : 'sk-…'}
                value={draft.apiKey}
                onChange={(event) => change({ apiKey: event.target.value })}
                onBlur={() => touch('apiKey')}
              />
              {connection?.hasApiKey ? (
                <button type="button" className="button button-quiet" disabled={busy} onClick={() => void removeKey()}>
                  Remove key
                </button>
              ) : null}
            </div>
          )}
        </FieldFrame>
      )}

      {draft.providerType === 'codex' ? (
        <FieldFrame
          controlId={`${formId}-codex-binary`}
          label="Codex binary"
          help="Leave empty to use the Codex bundled with Cairn, or codex on PATH. Or give the full path of the codex binary to run; Test shows which one runs and its version."
          error={shown.codexBinary}
        >
          {(aria) => (
            <input
              {...aria}
              className="input"
              type="text"
              spellCheck={false}
              autoComplete="off"
              placeholder="Found automatically"
              value={draft.codexBinary}
              onChange={(event) => change({ codexBinary: event.target.value })}
              onBlur={() => touch('codexBinary')}
            />
          )}
        </FieldFrame>
      ) : null}

      {acpPreset !== null ? (
        <FieldFrame
          controlId={`${formId}-acp-model`}
          label="Model"
          required={acpPreset.needsServer}
          help={acpPreset.needsServer ? 'The model’s id on that server.' : 'Leave empty for the agent’s own default model.'}
          error={shown.acpModel}
        >
          {(aria) => (
            <input
              {...aria}
              className="input"
              type="text"
              spellCheck={false}
              autoComplete="off"
              value={draft.acpModel}
              onChange={(event) => change({ acpModel: event.target.value })}
              onBlur={() => touch('acpModel')}
            />
          )}
        </FieldFrame>
      ) : null}

      {draft.providerType === 'acp' ? (
        <>
          {acpPreset !== null ? null : (
            <FieldFrame
              controlId={`${formId}-acp-command`}
              label="Agent command"
              required
              help="The program that speaks ACP on its stdin and stdout, and its arguments: a full path or a name on PATH, for example gemini --acp. Quote an argument with spaces. Checked when you save; Test starts it and shows its name, version and what it can do."
              error={shown.acpCommand}
            >
              {(aria) => (
                <input
                  {...aria}
                  className="input"
                  type="text"
                  spellCheck={false}
                  autoComplete="off"
                  placeholder="/usr/local/bin/my-agent --acp"
                  value={draft.acpCommand}
                  onChange={(event) => change({ acpCommand: event.target.value })}
                  onBlur={() => touch('acpCommand')}
                />
              )}
            </FieldFrame>
          )}
          <FieldFrame
            controlId={`${formId}-acp-env`}
            label="Environment"
            help="Extra environment for the agent, one NAME=value a line. Stored with the connection in Cairn’s database, not encrypted."
            error={shown.acpEnv}
          >
            {(aria) => (
              <textarea
                {...aria}
                className="input"
                rows={3}
                spellCheck={false}
                autoComplete="off"
                placeholder="Optional: NAME=value, one a line"
                value={draft.acpEnv}
                onChange={(event) => change({ acpEnv: event.target.value })}
                onBlur={() => touch('acpEnv')}
              />
            )}
          </FieldFrame>
        </>
      ) : null}

      <fieldset className="timeout-fields">
        <legend className="field-label">Patience with a slow provider</legend>
        <p className="field-help">How long a turn waits for the first word of an answer, and then for each next part, before it fails with Retry.</p>
        <div className="timeout-row">
          <SecondsField
            controlId={`${formId}-first-token`}
            label="First answer within (seconds)"
            error={shown.firstTokenTimeout}
            value={draft.firstTokenTimeout}
            onChange={(value) => change({ firstTokenTimeout: value })}
            onBlur={() => touch('firstTokenTimeout')}
          />
          <SecondsField
            controlId={`${formId}-idle`}
            label="Silence mid-answer up to (seconds)"
            error={shown.idleTimeout}
            value={draft.idleTimeout}
            onChange={(value) => change({ idleTimeout: value })}
            onBlur={() => touch('idleTimeout')}
          />
        </div>
      </fieldset>

      <div className="form-actions">
        {notice !== null ? (
          <p ref={noticeRef} tabIndex={-1} className={`form-notice tone-${notice.tone}`} role={notice.tone === 'error' ? 'alert' : 'status'} data-testid="connection-notice">
            {notice.text}
          </p>
        ) : (
          <span />
        )}
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? <Spinner /> : null}
          {adding ? 'Add connection' : 'Save changes'}
        </button>
      </div>
    </form>
  );
}

function sameDraft(a: ConnectionDraft, b: ConnectionDraft): boolean {
  return (
    a.name === b.name &&
    a.providerType === b.providerType &&
    a.baseUrl === b.baseUrl &&
    a.apiKey === b.apiKey &&
    a.firstTokenTimeout === b.firstTokenTimeout &&
    a.idleTimeout === b.idleTimeout &&
    a.codexBinary === b.codexBinary &&
    a.acpCommand === b.acpCommand &&
    a.acpEnv === b.acpEnv &&
    a.acpAgentKind === b.acpAgentKind &&
    a.acpModel === b.acpModel
  );
}

interface SecondsFieldProps {
  readonly controlId: string;
  readonly label: string;
  readonly error: string | undefined;
  readonly value: string;
  onChange(value: string): void;
  onBlur(): void;
}

/** A whole number of seconds, 1 to 3600 (the host checks the same bounds). */
function SecondsField({ controlId, label, error, value, onChange, onBlur }: SecondsFieldProps) {
  return (
    <FieldFrame controlId={controlId} label={label} error={error}>
      {(aria) => (
        <input
          {...aria}
          className="input input-seconds"
          type="number"
          inputMode="numeric"
          min={1}
          max={3600}
          step={1}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          onBlur={onBlur}
        />
      )}
    </FieldFrame>
  );
}
