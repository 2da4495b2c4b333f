import type { QueuedMessage } from '../../src-shared/model';
import { useAppStore } from '../state/store-context';

const NONE: readonly QueuedMessage[] = [];

/** Follow-ups waiting behind the running turn; each leaves this list when it starts. */
export function QueuedMessages({ sessionId }: { sessionId: string }) {
  const queue = useAppStore((state) => state.queues[sessionId] ?? NONE);
  if (queue.length === 0) return null;
  return (
    <ul className="queued-list" aria-label="Queued follow-ups">
      {queue.map((message) => (
        <li key={message.messageId} className="queued" data-testid="queued-message">
          <span className="queued-tag">Queued</span>
          <span className="queued-text">{message.text}</span>
          {message.attachments === undefined ? null : (
            <span className="queued-files" data-testid="queued-files" title={message.attachments.map((file) => file.name).join(', ')}>
              {message.attachments.length === 1 ? `with ${message.attachments[0]?.name ?? 'a file'}` : `with ${message.attachments.length} files`}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
