import { useEffect, useRef } from 'react';
import { useAppStore, useStoreApi } from '../state/store-context';
import { Dialog } from './Dialog';

/** Asks before a session and its transcript are deleted for good, and says what becomes of its worktree. */
export function DeleteSessionDialog() {
  const store = useStoreApi();
  const sessionId = useAppStore((state) => state.pendingDeleteId);
  const title = useAppStore((state) =>
    state.pendingDeleteId === null ? '' : (state.sessions.byId[state.pendingDeleteId]?.title ?? ''),
  );
  // The session's worktree, when it works in one (read now if this window has not yet).
  const worktree = useAppStore((state) =>
    state.pendingDeleteId === null ? null : (state.worktreeBySession[state.pendingDeleteId]?.status ?? null),
  );
  const known = useAppStore(
    (state) => state.pendingDeleteId !== null && state.worktreeBySession[state.pendingDeleteId] !== undefined,
  );
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (sessionId !== null && !known && store.getState().sessions.byId[sessionId]?.workspacePath != null)
      void store.getState().loadWorktree(sessionId);
  }, [sessionId, known, store]);
  if (sessionId === null) return null;
  const actions = store.getState();
  const close = () => actions.askToDelete(null);
  const changed = worktree === null ? 0 : worktree.files.length;

  return (
    <Dialog
      title="Delete this session?"
      describedBy="delete-dialog-text"
      onClose={close}
      initialFocus={cancelRef}
      actions={
        <>
          <button type="button" className="button" ref={cancelRef} onClick={close}>
            Cancel
          </button>
          <button type="button" className="button button-danger" onClick={() => void actions.deleteSession(sessionId)}>
            Delete
          </button>
        </>
      }
    >
      <div id="delete-dialog-text" className="dialog-paragraphs">
        <p>“{title}” and its whole transcript will be deleted from this computer. This cannot be undone.</p>
        {worktree === null || !worktree.present ? null : (
          <p data-testid="delete-worktree-note">
            It works in a worktree of its own, on the branch <code>{worktree.worktree.branch}</code>
            {changed === 0 ? '' : ` (${changed === 1 ? '1 changed file' : `${changed} changed files`})`}. The worktree
            is not deleted with it: Cairn then lists it as left behind, to discard or keep. To bring its work into your
            checkout, merge it back from Changes first.
          </p>
        )}
      </div>
    </Dialog>
  );
}
