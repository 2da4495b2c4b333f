import { useState } from 'react';
import type { McpPromptInfo } from '../../../src-shared/mcp-model';

/**
 * A chosen MCP prompt's arguments, asked inline in the / menu: Enter inserts the prompt's text in
 * place of the "/…", Esc or Back goes back to the message box.
 */
export function McpPromptArguments({
  prompt,
  busy,
  notice,
  onInsert,
  onBack,
}: {
  prompt: McpPromptInfo;
  busy: boolean;
  notice: string | null;
  onInsert: (values: Readonly<Record<string, string>>) => void;
  onBack: () => void;
}) {
  const [args, setArgs] = useState<Record<string, string>>({});
  return (
    // Not a <form>: the menu sits inside the composer's form, and a nested submit would send the message.
    <div
      className="slash-prompt-form"
      role="group"
      aria-label={`Arguments of ${prompt.title}`}
      onKeyDown={(event) => {
        if (event.key === 'Enter') {
          event.preventDefault();
          onInsert(args);
        } else if (event.key === 'Escape') {
          event.preventDefault();
          event.stopPropagation();
          onBack();
        }
      }}
    >
      <div className="slash-menu-heading">
        {prompt.title} · MCP server {prompt.serverName}
      </div>
      {prompt.arguments.map((argument, index) => (
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
      {notice === null ? null : (
        <p className="form-notice tone-error" role="alert">
          {notice}
        </p>
      )}
      <div className="section-row">
        <button type="button" className="button button-quiet" onClick={onBack}>
          Back
        </button>
        <button type="button" className="button button-primary" disabled={busy} onClick={() => onInsert(args)}>
          Insert prompt
        </button>
      </div>
    </div>
  );
}
