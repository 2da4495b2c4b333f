import { useState } from 'react';

/** An On/Off switch for a record (a connection, an MCP server) that shows why a change was refused. */
export function EnabledSwitch({
  enabled,
  onChange,
}: {
  enabled: boolean;
  onChange: (enabled: boolean) => Promise<{ ok: true } | { ok: false; message: string }>;
}) {
  const [message, setMessage] = useState<string | null>(null);
  return (
    <div className="enabled-switch">
      <label className="switch">
        <input
          type="checkbox"
          role="switch"
          checked={enabled}
          onChange={(event) => {
            setMessage(null);
            void onChange(event.target.checked).then((outcome) => setMessage(outcome.ok ? null : outcome.message));
          }}
        />
        <span className="switch-track" aria-hidden="true" />
        <span>{enabled ? 'On' : 'Off'}</span>
      </label>
      {message === null ? null : (
        <p className="form-notice tone-error" role="alert">
          {message}
        </p>
      )}
    </div>
  );
}
