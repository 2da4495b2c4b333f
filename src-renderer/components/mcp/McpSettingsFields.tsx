import type { McpServerDraft, McpSettingDraft } from '../../forms/mcp-server-form';

interface McpSettingsFieldsProps {
  readonly formId: string;
  readonly draft: McpServerDraft;
  readonly error: string | undefined;
  change(patch: Partial<McpServerDraft>): void;
}

/** An MCP server's environment variables (a local command) or headers (HTTP): name, value, Secret, Remove; Add another. */
export function McpSettingsFields({ formId, draft, error, change }: McpSettingsFieldsProps) {
  const what = draft.transport === 'stdio' ? 'variable' : 'header';
  const changeSetting = (index: number, patch: Partial<McpSettingDraft>) =>
    change({ settings: draft.settings.map((setting, at) => (at === index ? { ...setting, ...patch } : setting)) });
  return (
    <fieldset className="mcp-settings" aria-describedby={error === undefined ? undefined : `${formId}-settings-error`}>
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
            <input
              type="checkbox"
              checked={setting.secret}
              onChange={(event) => changeSetting(index, { secret: event.target.checked, stored: false, value: '' })}
            />
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
      <button
        type="button"
        className="button button-quiet"
        onClick={() => change({ settings: [...draft.settings, { name: '', value: '', secret: false, stored: false }] })}
      >
        Add {what}
      </button>
      <p className="field-help">Secret values are stored encrypted on this machine and never shown again.</p>
      {error === undefined ? null : (
        <p className="field-error" id={`${formId}-settings-error`} role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
