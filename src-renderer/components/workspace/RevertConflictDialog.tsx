import { useRef } from 'react';
import type { ConflictResolution } from '../../../src-shared/checkpoint-model';
import { useAppStore, useStoreApi } from '../../state/store-context';
import { Dialog } from '../Dialog';

/** Files the person changed since a checkpoint, met by a revert or a rewind: keep theirs, take the checkpoint's, or cancel. */
export function RevertConflictDialog() {
  const store = useStoreApi();
  const conflict = useAppStore((state) => state.revertConflict);
  const cancelRef = useRef<HTMLButtonElement>(null);
  if (conflict === null) return null;
  const actions = store.getState();
  const close = () => actions.dismissRevertConflict();
  const answer = (resolution: ConflictResolution) =>
    void (conflict.kind === 'revert'
      ? actions.revertChanges(conflict.sessionId, conflict.changeSetId, conflict.path, resolution)
      : actions.rewindTo(conflict.sessionId, conflict.itemId, resolution));
  const verb = conflict.kind === 'revert' ? 'Reverting' : 'Rewinding';
  return (
    <Dialog
      title={conflictTitle(conflict.kind, conflict.files.length)}
      describedBy="revert-conflict-text"
      onClose={close}
      initialFocus={cancelRef}
      className="revert-conflict"
      actions={
        <>
          <button type="button" className="button" ref={cancelRef} onClick={close}>
            Cancel
          </button>
          <button type="button" className="button" onClick={() => answer('keep_mine')}>
            Keep mine
          </button>
          <button type="button" className="button" onClick={() => answer('open_both')}>
            Open both
          </button>
          <button type="button" className="button button-danger" onClick={() => answer('take_checkpoint')}>
            Take checkpoint
          </button>
        </>
      }
    >
      <div id="revert-conflict-text">
        <p>{verb} would overwrite your own changes to:</p>
        <ul className="revert-conflict-files" data-testid="revert-conflict-files">
          {conflict.files.map((file) => (
            <li key={file}>
              <code>{file}</code>
            </li>
          ))}
        </ul>
        <p>
          Keep mine {conflict.kind === 'revert' ? 'reverts' : 'rewinds'} only the other files; Take checkpoint puts
          these back as they were before the {conflict.kind === 'revert' ? 'turn' : 'turns'} too; Open both keeps yours
          and writes the checkpoint’s version beside each (<code>notes.md</code> →{' '}
          <code>notes.cairn-checkpoint.md</code>) to compare.
        </p>
      </div>
    </Dialog>
  );
}

/** The dialog's title: which files, changed since what. */
export function conflictTitle(kind: 'revert' | 'rewind', files: number): string {
  const which = files === 1 ? 'this file' : 'these files';
  return kind === 'revert'
    ? `You changed ${which} after the turn did`
    : `You changed ${which} after the turns you are rewinding did`;
}
