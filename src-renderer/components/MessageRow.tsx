import { memo, useState } from 'react';
import type { TranscriptItem } from '../../src-shared/model';
import { selectEndsTurn, selectItem } from '../state/selectors';
import { useAppStore } from '../state/store-context';
import { Markdown } from './Markdown';
import { ToolItem } from './ToolItem';
import { TurnStatus } from './TurnStatus';

/**
 * One transcript entry: its message (selected by id, so streaming into it re-renders only this row)
 * and, under the last message of a turn, the turn's status.
 */
export const MessageRow = memo(function MessageRow({ sessionId, itemId, index }: { sessionId: string; itemId: string; index: number }) {
  const item = useAppStore(selectItem(sessionId, itemId));
  const endsTurn = useAppStore(selectEndsTurn(sessionId, index));
  if (item === undefined) return null;
  return (
    <div className="entry">
      <MessageBody item={item} />
      {endsTurn ? <TurnStatus sessionId={sessionId} turnId={item.turnId} /> : null}
    </div>
  );
});

/** The message itself. Its element's text is the message's text: labels and chrome sit outside it or come from CSS. */
function MessageBody({ item }: { item: TranscriptItem }) {
  const streaming = item.state === 'streaming';
  const common = {
    'data-testid': 'message',
    'data-kind': item.kind,
    'data-item-id': item.itemId,
  } as const;
  switch (item.kind) {
    case 'user_message':
      return (
        <div className="message-line message-line-user">
          <div {...common} className="message message-user">
            {item.text}
          </div>
        </div>
      );
    case 'assistant_message':
      return (
        <div className="message-line message-line-assistant">
          <div {...common} className={`message message-assistant markdown${streaming ? ' is-streaming' : ''}`}>
            <Markdown text={item.text} />
          </div>
        </div>
      );
    case 'reasoning':
      return <Reasoning item={item} common={common} />;
    case 'tool_call':
    case 'tool_result':
      return <ToolItem item={item} common={common} />;
    default:
      return (
        <div className="message-line message-line-notice">
          <div {...common} className="message message-notice">
            {item.text}
          </div>
        </div>
      );
  }
}

/** The agent's reasoning: open while it streams, folded once final (a click opens it again). */
function Reasoning({ item, common }: { item: TranscriptItem; common: Record<string, string> }) {
  const [toggled, setToggled] = useState<boolean | null>(null);
  const streaming = item.state === 'streaming';
  const open = toggled ?? streaming;
  return (
    <div className="message-line message-line-reasoning">
      <button type="button" className="reasoning-toggle" aria-expanded={open} onClick={() => setToggled(!open)}>
        {streaming ? 'Thinking…' : 'Thoughts'}
      </button>
      <div {...common} className={`message message-reasoning markdown${open ? '' : ' is-folded'}${streaming ? ' is-streaming' : ''}`}>
        <Markdown text={item.text} />
      </div>
    </div>
  );
}
