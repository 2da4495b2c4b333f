import { useEffect, useRef, useState } from 'react';
import type { QueuedMessage } from '../../src-shared/model';
import { useAppStore, useStoreApi } from '../state/store-context';
import { PencilIcon, TrashIcon } from './icons';

const NONE: readonly QueuedMessage[] = [];

/** Follow-ups waiting behind the running turn, each with Edit and Remove; each leaves this list when it starts. */
export function QueuedMessages({ sessionId }: { sessionId: string }) {
  const queue = useAppStore((state) => state.queues[sessionId] ?? NONE);
  if (queue.length === 0) return null;
  return (
    <ul className="queued-list" aria-label="Queued follow-ups">
      {queue.map((message) => (
        <QueuedRow key={message.messageId} message={message} />
      ))}
    </ul>
  );
}

function QueuedRow({ message }: { message: QueuedMessage }) {
  const store = useStoreApi();
  const [draft, setDraft] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const fieldRef = useRef<HTMLTextAreaElement>(null);
  const editing = draft !== null;

  useEffect(() => {
    if (!editing) return;
    fieldRef.current?.focus();
    fieldRef.current?.select();
  }, [editing]);

  const save = () => {
    if (draft === null) return;
    if (draft.trim() === message.text) return setDraft(null);
    setBusy(true);
    void store
      .getState()
      .editQueuedMessage(message.sessionId, message.messageId, draft)
      .then((saved) => {
        setBusy(false);
        if (saved) setDraft(null);
      });
  };

  if (editing) {
    return (
      <li className="queued is-editing" data-testid="queued-message">
        <span className="queued-tag">Queued</span>
        <form
          className="queued-edit"
          aria-label="Edit the queued follow-up"
          onSubmit={(event) => {
            event.preventDefault();
            save();
          }}
        >
          <textarea
            ref={fieldRef}
            className="input queued-edit-field"
            aria-label="Queued follow-up"
            rows={Math.min(6, Math.max(1, draft.split('\n').length))}
            value={draft}
            disabled={busy}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Escape') {
                event.preventDefault();
                event.stopPropagation();
                setDraft(null);
              } else if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
                event.preventDefault();
                save();
              }
            }}
          />
          <button type="submit" className="button button-small button-primary" disabled={busy || draft.trim() === ''}>
            Save
          </button>
          <button
            type="button"
            className="button button-small button-quiet"
            disabled={busy}
            onClick={() => setDraft(null)}
          >
            Cancel
          </button>
        </form>
      </li>
    );
  }
  return (
    <li className="queued" data-testid="queued-message">
      <span className="queued-tag">Queued</span>
      <span className="queued-text">{message.text}</span>
      {message.attachments === undefined ? null : (
        <span
          className="queued-files"
          data-testid="queued-files"
          title={message.attachments.map((file) => file.name).join(', ')}
        >
          {message.attachments.length === 1
            ? `with ${message.attachments[0]?.name ?? 'a file'}`
            : `with ${message.attachments.length} files`}
        </span>
      )}
      <span className="queued-actions">
        <button
          type="button"
          className="icon-button"
          aria-label="Edit queued follow-up"
          title="Edit before it starts"
          onClick={() => setDraft(message.text)}
        >
          <PencilIcon />
        </button>
        <button
          type="button"
          className="icon-button"
          aria-label="Remove queued follow-up"
          title="Remove it from the queue"
          disabled={busy}
          onClick={() => {
            setBusy(true);
            void store
              .getState()
              .removeQueuedMessage(message.sessionId, message.messageId)
              .then(() => setBusy(false));
          }}
        >
          <TrashIcon />
        </button>
      </span>
    </li>
  );
}
