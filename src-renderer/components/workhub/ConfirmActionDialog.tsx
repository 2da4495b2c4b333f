import { useRef } from 'react';
import { confirmationWords } from '../../format/workhub-text';
import { useAppStore, useStoreApi } from '../../state/store-context';
import { Dialog } from '../Dialog';

/** Asks before the WorkHub stops or moves running work; only Confirm here sends it, marked as confirmed by the person. */
export function ConfirmActionDialog() {
  const store = useStoreApi();
  const pending = useAppStore((state) => state.workhub.confirming);
  const keepRef = useRef<HTMLButtonElement>(null);
  if (pending === null) return null;
  const actions = store.getState();
  const words = confirmationWords(pending.proposal, pending.targetTitle);
  const close = () => actions.cancelConfirmation();
  return (
    <Dialog
      title={words.title}
      describedBy="workhub-confirm-text"
      onClose={close}
      initialFocus={keepRef}
      className="workhub-confirm"
      actions={
        <>
          <button type="button" className="button" ref={keepRef} onClick={close}>
            {words.keep}
          </button>
          <button
            type="button"
            className={`button ${pending.proposal.kind === 'stop_work' ? 'button-danger' : 'button-primary'}`}
            onClick={() => void actions.confirmAction()}
          >
            {words.confirm}
          </button>
        </>
      }
    >
      <p id="workhub-confirm-text">{words.body}</p>
    </Dialog>
  );
}
