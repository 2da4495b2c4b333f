import { useRef } from 'react';
import type { RewindFileAction, RewindPlan, RewindPlanFile } from '../../../src-shared/checkpoint-model';
import { useAppStore, useStoreApi } from '../../state/store-context';
import { Dialog } from '../Dialog';
import { Spinner } from '../icons';

/** The groups the files are listed in, in this order, each with what the rewind does to them. */
const GROUPS: readonly { action: RewindFileAction; title: string; hint: string }[] = [
  { action: 'change', title: 'Change', hint: 'as before this message' },
  { action: 'create', title: 'Create', hint: 'deleted by a later turn' },
  { action: 'delete', title: 'Delete', hint: 'created by a later turn' },
];

/**
 * Rewind to here, before it is done: the files it would change, create or delete (read from the host
 * without writing anything), and what happens to the conversation; Rewind does it, Cancel (or Esc)
 * changes nothing. Focus starts on Cancel and returns to the message's Rewind button.
 */
export function RewindPreviewDialog() {
  const store = useStoreApi();
  const preview = useAppStore((state) => state.rewindPreview);
  const cancelRef = useRef<HTMLButtonElement>(null);
  if (preview === null) return null;
  const actions = store.getState();
  const close = () => actions.closeRewindPreview();
  const confirm = () => {
    close();
    void actions.rewindTo(preview.sessionId, preview.itemId);
  };
  const { plan } = preview;
  return (
    <Dialog
      title="Rewind to before this message?"
      describedBy="rewind-preview-text"
      onClose={close}
      initialFocus={cancelRef}
      className="rewind-preview"
      actions={
        <>
          <button type="button" className="button" ref={cancelRef} onClick={close}>
            Cancel
          </button>
          <button type="button" className="button button-primary" disabled={plan.state !== 'ready'} onClick={confirm}>
            Rewind
          </button>
        </>
      }
    >
      <div id="rewind-preview-text" data-testid="rewind-preview" data-state={plan.state}>
        <p>
          The conversation goes back to before this message, in a new session; this session keeps every turn.{' '}
          <em>Undo this rewind</em>, in the new session’s Changes, puts the files forward again.
        </p>
        {plan.state === 'loading' ? (
          <p className="rewind-preview-loading">
            <Spinner />
            Finding the files to put back…
          </p>
        ) : plan.state === 'failed' ? (
          <p className="rewind-preview-error" role="alert">
            {plan.message}
          </p>
        ) : (
          <PlanFiles plan={plan.plan} />
        )}
      </div>
    </Dialog>
  );
}

function PlanFiles({ plan }: { plan: RewindPlan }) {
  if (!plan.hasWorkspace)
    return (
      <p data-testid="rewind-preview-none">This session has no workspace folder: only the conversation goes back.</p>
    );
  if (plan.files.length === 0)
    return (
      <p data-testid="rewind-preview-none">
        No file changes: every file already is as it was before this message. Only the conversation goes back.
      </p>
    );
  const yours = plan.files.filter((file) => file.changedSince).length;
  return (
    <>
      <p>
        {plan.files.length === 1 ? 'This file is' : `These ${plan.files.length} files are`} put back as they were before
        this message:
      </p>
      {GROUPS.map((group) => (
        <FileGroup
          key={group.action}
          title={group.title}
          hint={group.hint}
          files={plan.files.filter((file) => file.action === group.action)}
        />
      ))}
      {yours === 0 ? null : (
        <p className="rewind-preview-yours">
          You changed {yours === 1 ? 'one of these' : `${yours} of these`} since (marked); Cairn asks what to do with{' '}
          {yours === 1 ? 'it' : 'them'} before writing anything.
        </p>
      )}
    </>
  );
}

function FileGroup({ title, hint, files }: { title: string; hint: string; files: readonly RewindPlanFile[] }) {
  if (files.length === 0) return null;
  const id = `rewind-preview-${title.toLowerCase()}`;
  return (
    <section
      className="rewind-preview-group"
      aria-labelledby={id}
      data-testid="rewind-preview-group"
      data-action={files[0]?.action}
    >
      <h3 id={id}>
        {title} {files.length === 1 ? '1 file' : `${files.length} files`}{' '}
        <span className="rewind-preview-hint">({hint})</span>
      </h3>
      <ul className="rewind-preview-files">
        {files.map((file) => (
          <li
            key={file.path}
            data-testid="rewind-preview-file"
            data-path={file.path}
            data-changed-since={file.changedSince ? 'true' : undefined}
          >
            <code title={file.path}>{file.path}</code>
            {file.changedSince ? <span className="rewind-preview-mine">changed by you since</span> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
