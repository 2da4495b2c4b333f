import { PROVIDERS } from '../../forms/connection-form';
import { FieldFrame, TextField } from '../FieldFrame';
import type { ConnectionFieldsProps } from './connection-fields-props';

/** What the base URL and key fields say for an agent Cairn knows (an ACP preset), where the provider's words do not fit. */
export interface EndpointWords {
  readonly baseUrlHelp: string;
  readonly keyHelp: string;
  /** Whether the agent cannot work without a base URL (an OpenAI-compatible server). */
  readonly needsServer: boolean;
}

/** The connection's name: the same field for every provider kind. */
export function NameField({ formId, draft, shown, change, touch }: ConnectionFieldsProps) {
  return (
    <TextField
      controlId={`${formId}-name`}
      label="Name"
      required
      error={shown.name}
      type="text"
      maxLength={120}
      autoComplete="off"
      value={draft.name}
      onChange={(name) => change({ name })}
      onBlur={() => touch('name')}
    />
  );
}

/** The server's address: empty for the provider's own where it has one. */
export function BaseUrlField({
  formId,
  draft,
  shown,
  change,
  touch,
  words = null,
}: ConnectionFieldsProps & { words?: EndpointWords | null }) {
  const provider = PROVIDERS[draft.providerType];
  return (
    <TextField
      controlId={`${formId}-base-url`}
      label="Base URL"
      required={draft.providerType === 'openai_compatible' || words?.needsServer === true}
      help={
        words?.baseUrlHelp ??
        provider.baseUrlHelp ??
        (provider.defaultBaseUrl === null
          ? 'The server’s OpenAI-style address, usually ending in /v1.'
          : `Leave empty for ${provider.label}’s own address.`)
      }
      error={shown.baseUrl}
      type="url"
      inputMode="url"
      spellCheck={false}
      autoComplete="off"
      placeholder={provider.defaultBaseUrl ?? 'http://127.0.0.1:1234/v1'}
      value={draft.baseUrl}
      onChange={(baseUrl) => change({ baseUrl })}
      onBlur={() => touch('baseUrl')}
    />
  );
}

/** The API key: write-only. A stored one shows as "•••• stored" and can be replaced or removed, never read. */
export function ApiKeyField({
  formId,
  draft,
  shown,
  connection,
  busy,
  change,
  touch,
  removeKey,
  words = null,
}: ConnectionFieldsProps & { words?: EndpointWords | null }) {
  const provider = PROVIDERS[draft.providerType];
  const stored = connection?.hasApiKey === true;
  const keyHelp = words?.keyHelp ?? provider.keyHelp;
  return (
    <FieldFrame
      controlId={`${formId}-api-key`}
      label="API key"
      required={connection === null && provider.keyNeeded === 'required'}
      help={
        stored
          ? 'A key is stored. Type a new one to replace it. Stored keys are encrypted and never shown again.'
          : keyHelp !== undefined
            ? `${keyHelp} Stored encrypted; never shown again.`
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
            placeholder={stored ? '•••• stored' : provider.keyNeeded === 'optional' ? 'Optional' : 'sk-…'}
            value={draft.apiKey}
            onChange={(event) => change({ apiKey: event.target.value })}
            onBlur={() => touch('apiKey')}
          />
          {stored ? (
            <button type="button" className="button button-quiet" disabled={busy} onClick={removeKey}>
              Remove key
            </button>
          ) : null}
        </div>
      )}
    </FieldFrame>
  );
}
