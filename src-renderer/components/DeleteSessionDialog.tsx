import { useRef } from 'react';
import { useAppStore, useStoreApi } from '../state/store-context';
import { Dialog } from './Dialog';

/** Asks before a session and its transcript are deleted for good. */
export function DeleteSessionDialog() {
  const store = useStoreApi();
  const sessionId = useAppStore((state) => state.pendingDeleteId);
  const title = useAppStore((state) => (state.pendingDeleteId === null ? '' : (state.sessions.byId[state.pendingDeleteId]?.title ?? '')));
  const cancelRef = useRef<HTMLButtonElement>(null);
  if (sessionId === null) return null;
  const actions = store.getState();
  const close = () => actions.askToDelete(null);

  return (
    <Dialog labelledBy="delete-dialog-title" describedBy="delete-dialog-text" onClose={close} initialFocus={cancelRef}>
      <h2 id="delete-dialog-title">Delete this session?</h2>
      <p id="delete-dialog-text">“{title}” and its whole transcript will be deleted from this computer. This cannot be undone.</p>
      <div className="dialog-actions">
        <button type="button" className="button" ref={cancelRef} onClick={close}>
          Cancel
        </button>
        <button type="button" className="button button-danger" onClick={() => void actions.deleteSession(sessionId)}>
          Delete
        </button>
      </div>
    </Dialog>
  );
}
