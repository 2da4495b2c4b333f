import { useEffect, useRef, useState } from 'react';
import type { TranscriptItem } from '../../src-shared/model';
import { useStoreApi } from '../state/store-context';

/** Edit in place: the person's message, changed, sent again in a new branch. */
export function EditMessage({ sessionId, item, busy }: { sessionId: string; item: TranscriptItem; busy: boolean }) {
  const store = useStoreApi();
  const [text, setText] = useState(item.text);
  const field = useRef<HTMLTextAreaElement>(null);
  useEffect(() => field.current?.focus(), []);
  const actions = store.getState();
  const send = () => {
    if (text.trim() !== '') void actions.branchAt(sessionId, item.itemId, 'edit', text);
  };
  return (
    <div className="branch-edit">
      <textarea
        ref={field}
        aria-label="Edited message"
        value={text}
        rows={Math.min(10, Math.max(2, text.split('\n').length))}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') actions.setEditingMessage(null);
          if (event.key === 'Enter' && !event.shiftKey) {
            event.preventDefault();
            send();
          }
        }}
      />
      <div className="branch-edit-actions">
        <span className="branch-edit-note">Sends in a new branch; this conversation stays as it is.</span>
        <button type="button" className="button" onClick={() => actions.setEditingMessage(null)}>
          Cancel
        </button>
        <button type="button" className="button button-primary" disabled={busy || text.trim() === ''} onClick={send}>
          {busy ? 'Branching…' : 'Send in a branch'}
        </button>
      </div>
    </div>
  );
}
