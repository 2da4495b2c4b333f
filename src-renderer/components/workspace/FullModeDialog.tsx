import { useRef } from 'react';
import { useAppStore, useStoreApi } from '../../state/store-context';
import { Dialog } from '../Dialog';
import { SANDBOX_NOTE } from './WorkspaceBar';

/** Asks before a session switches to Full, where the agent changes files and runs commands without asking. */
export function FullModeDialog() {
  const store = useStoreApi();
  const sessionId = useAppStore((state) => state.confirmingFullFor);
  const title = useAppStore((state) =>
    state.confirmingFullFor === null ? '' : (state.sessions.byId[state.confirmingFullFor]?.title ?? ''),
  );
  const folder = useAppStore((state) =>
    state.confirmingFullFor === null ? null : (state.sessions.byId[state.confirmingFullFor]?.workspacePath ?? null),
  );
  const cancelRef = useRef<HTMLButtonElement>(null);
  if (sessionId === null) return null;
  const answer = (confirmed: boolean) => void store.getState().confirmFullMode(confirmed);

  return (
    <Dialog
      title="Let the agent run everything without asking?"
      describedBy="full-dialog-text"
      onClose={() => answer(false)}
      initialFocus={cancelRef}
      actions={
        <>
          <button type="button" className="button" ref={cancelRef} onClick={() => answer(false)}>
            Keep asking
          </button>
          <button type="button" className="button button-danger" onClick={() => answer(true)}>
            Switch to Full
          </button>
        </>
      }
    >
      <p id="full-dialog-text">
        In Full mode the agent in “{title}” writes and edits files
        {folder === null ? (
          ''
        ) : (
          <>
            {' '}
            in <code>{folder}</code>
          </>
        )}{' '}
        and runs shell commands on this computer without showing them to you first. {SANDBOX_NOTE}
      </p>
    </Dialog>
  );
}
