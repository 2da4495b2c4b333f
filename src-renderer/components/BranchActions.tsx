import { useEffect, useRef, useState } from 'react';
import type { TranscriptItem } from '../../src-shared/model';
import { messageAuthorOf } from '../../src-shared/message-author';
import { WORKHUB_SESSION_ID } from '../../src-shared/workhub-model';
import { useAppStore, useStoreApi } from '../state/store-context';

const NO_BRANCHES: readonly never[] = [];

/**
 * Under the person's message: Edit (resend it changed, in a branch) and Rewind to here (conversation
 * and files back to before it, in a branch). Under an agent answer:
 * Regenerate (ask again, in a branch). Under either, "Branched here" with a link to each branch.
 */
export function BranchActions({
  sessionId,
  item,
  endsTurn,
}: {
  sessionId: string;
  item: TranscriptItem;
  /** Regenerate is offered under a turn's final answer. */ endsTurn: boolean;
}) {
  const store = useStoreApi();
  const branches = useAppStore((state) => state.branchLinks[sessionId]?.branches ?? NO_BRANCHES);
  const editing = useAppStore((state) => state.editingMessage?.sessionId === sessionId && state.editingMessage.itemId === item.itemId);
  const busy = useAppStore((state) => state.branchingItemId === item.itemId);
  const rewinding = useAppStore((state) => state.reverting === item.itemId);
  if (sessionId === WORKHUB_SESSION_ID || item.state === 'streaming') return null;
  if (item.kind !== 'user_message' && item.kind !== 'assistant_message') return null;
  // A scheduled task's message is not the person's to edit.
  if (item.kind === 'user_message' && messageAuthorOf(item.data) !== null) return null;
  const here = branches.filter((branch) => branch.atItemId === item.itemId);
  if (item.kind === 'assistant_message' && !endsTurn && here.length === 0) return null;
  const actions = store.getState();
  const mine = item.kind === 'user_message';
  if (editing) return <EditMessage sessionId={sessionId} item={item} busy={busy} />;
  return (
    <div className={`branch-actions${mine ? ' is-user' : ''}`}>
      {mine ? (
        <button
          type="button"
          className="text-button"
          onClick={() => actions.setEditingMessage({ sessionId, itemId: item.itemId })}
          title="Change this message and send it again in a branch"
        >
          Edit
        </button>
      ) : null}
      {mine ? (
        <button
          type="button"
          className="text-button"
          disabled={rewinding}
          onClick={() => void actions.rewindTo(sessionId, item.itemId)}
          title="Put the conversation and the files back as they were before this message, in a branch (this session keeps every turn)"
        >
          {rewinding ? 'Rewinding…' : 'Rewind to here'}
        </button>
      ) : (
        <button
          type="button"
          className="text-button"
          disabled={busy}
          onClick={() => void actions.branchAt(sessionId, item.itemId, 'regenerate')}
          title="Ask again for a new answer, in a branch"
        >
          {busy ? 'Regenerating…' : 'Regenerate'}
        </button>
      )}
      {here.map((branch) => (
        <button
          key={branch.branchSessionId}
          type="button"
          className="text-button branch-link"
          data-testid="branched-here"
          onClick={() => actions.selectSession(branch.branchSessionId)}
        >
          Branched here → {branch.title}
        </button>
      ))}
    </div>
  );
}

function EditMessage({ sessionId, item, busy }: { sessionId: string; item: TranscriptItem; busy: boolean }) {
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

/** At the top of a branch: where it came from, with a link back. */
export function BranchOriginBar({ sessionId }: { sessionId: string }) {
  const store = useStoreApi();
  const origin = useAppStore((state) => state.branchLinks[sessionId]?.branchedFrom ?? null);
  useEffect(() => {
    void store.getState().loadBranches(sessionId);
  }, [sessionId, store]);
  if (origin === null) return null;
  const lead = origin.mode === 'rewind' ? 'Rewound to before a message of' : `Branched at ${origin.mode === 'edit' ? 'an edited message' : 'a regenerated answer'} from`;
  return (
    <div className="branch-origin" data-testid="branch-origin">
      {origin.sourceTitle === null ? (
        <span>{lead} a session that was deleted since.</span>
      ) : (
        <span>
          {lead}{' '}
          <button type="button" className="text-button branch-link" onClick={() => store.getState().selectSession(origin.sourceSessionId)}>
            {origin.sourceTitle}
          </button>
        </span>
      )}
      {origin.state === 'copying' ? <span className="tag">Copying…</span> : null}
    </div>
  );
}
