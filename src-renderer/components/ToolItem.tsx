import { useState } from 'react';
import type { TranscriptItem } from '../../src-shared/model';

/** Pretty JSON for a tool's input or output (a string is shown as it is). */
export function formatToolValue(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}

/**
 * A tool call or its result: one quiet line with the tool's name, and the input or output a click
 * away. The message element holds the item's text (the tool name); the details sit beside it.
 */
export function ToolItem({ item, common }: { item: TranscriptItem; common: Record<string, string> }) {
  const [open, setOpen] = useState(false);
  const call = item.kind === 'tool_call';
  const data = item.data ?? {};
  const failed = !call && data.isError === true;
  const details = formatToolValue(call ? data.input : data.output);
  return (
    <div className={`message-line message-line-tool${failed ? ' is-error' : ''}`}>
      <div className="tool-line">
        <span className="tool-label">{call ? 'Tool' : failed ? 'Tool failed' : 'Result'}</span>
        <span {...common} className="message message-tool">
          {item.text}
        </span>
        {details !== '' ? (
          <button type="button" className="text-button" aria-expanded={open} onClick={() => setOpen(!open)}>
            {open ? 'Hide' : call ? 'Show input' : 'Show output'}
          </button>
        ) : null}
      </div>
      {open ? <pre className="tool-details">{details}</pre> : null}
    </div>
  );
}
