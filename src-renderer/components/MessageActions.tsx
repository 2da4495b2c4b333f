import { lazy, Suspense } from 'react';
import type { TranscriptItem } from '../../src-shared/model';
import { messageAuthorOf } from '../../src-shared/message-author';
import { WORKHUB_SESSION_ID } from '../../src-shared/workhub-model';
import { selectEndsAnswerTurn } from '../state/selectors';
import { useAppStore, useStoreApi } from '../state/store-context';
import { MessageCopyButtons } from './MessageCopyButtons';
import { versionSessionsAt, versionSwitchAt } from '../state/version-switch';
import { retryingImport } from '../platform/retrying-import';

/** Editing a message, and the switch between versions (only after an edit or a regenerate), load when first shown. */
const EditMessage = lazy(() =>
  retryingImport(() => import('./EditMessage')).then((module) => ({ default: module.EditMessage })),
);
const VersionSwitch = lazy(() =>
  retryingImport(() => import('./VersionSwitch')).then((module) => ({ default: module.VersionSwitch })),
);

/**
 * One compact row of actions under a message, shown on hover or focus (always on a touch screen):
 * Copy and Copy as plain text; Edit and Rewind to here (conversation and files back to before it)
 * under the person's message, Regenerate under a turn's final answer (each in a branch); the
 * "‹ 1 / 2 ›" switch between the versions of an edited message or a regenerated answer (always
 * shown), and a link to each other branch made there (a rewind). None under an agent's interim
 * lines ("Calling write_file."), nothing in the WorkHub, nothing while a message still streams.
 */
export function MessageActions({
  sessionId,
  item,
  index,
  goalTurn,
}: {
  sessionId: string;
  item: TranscriptItem;
  index: number;
  goalTurn: boolean;
}) {
  const store = useStoreApi();
  const endsTurn = useAppStore(selectEndsAnswerTurn(sessionId, index));
  const links = useAppStore((state) => state.branchLinks[sessionId]);
  const editing = useAppStore(
    (state) => state.editingMessage?.sessionId === sessionId && state.editingMessage.itemId === item.itemId,
  );
  const busy = useAppStore((state) => state.branchingItemId === item.itemId);
  const rewinding = useAppStore((state) => state.reverting === item.itemId);
  if (sessionId === WORKHUB_SESSION_ID || item.state !== 'final') return null;
  if (item.kind !== 'user_message' && item.kind !== 'assistant_message') return null;
  if (editing)
    return (
      <Suspense fallback={null}>
        <EditMessage sessionId={sessionId} item={item} busy={busy} />
      </Suspense>
    );
  const versions = versionSwitchAt(links, item);
  const switched = versionSessionsAt(links, item.turnId);
  const here = (links?.branches ?? []).filter(
    (branch) => branch.atItemId === item.itemId && !switched.has(branch.branchSessionId),
  );
  const mine = item.kind === 'user_message';
  if (!mine && !endsTurn && here.length === 0 && versions === null) return null;
  // A goal's or a scheduled task's message is not the person's to edit; a goal turn is not regenerated.
  const canEdit = mine && !goalTurn && messageAuthorOf(item.data) === null;
  const canRegenerate = !mine && endsTurn && !goalTurn;
  const actions = store.getState();
  return (
    <div
      className={`message-actions${mine ? ' is-user' : ''}`}
      role="group"
      aria-label={mine ? 'Message actions' : 'Answer actions'}
      data-testid="message-actions"
    >
      {versions === null ? null : (
        <Suspense fallback={null}>
          <VersionSwitch sessionId={sessionId} itemId={item.itemId} versions={versions} />
        </Suspense>
      )}
      <MessageCopyButtons sessionId={sessionId} index={index} kind={item.kind} text={item.text} />
      {canEdit ? (
        <button
          type="button"
          className="text-button"
          onClick={() => actions.setEditingMessage({ sessionId, itemId: item.itemId })}
          title="Change this message and send it again in a branch"
        >
          Edit
        </button>
      ) : null}
      {mine && messageAuthorOf(item.data) === null ? (
        <button
          type="button"
          className="text-button"
          disabled={rewinding}
          aria-haspopup="dialog"
          onClick={() => void actions.previewRewind(sessionId, item.itemId)}
          title="Put the conversation and the files back as they were before this message, in a branch (this session keeps every turn); shows the files first"
        >
          {rewinding ? 'Rewinding…' : 'Rewind to here'}
        </button>
      ) : null}
      {canRegenerate ? (
        <button
          type="button"
          className="text-button"
          disabled={busy}
          onClick={() => void actions.branchAt(sessionId, item.itemId, 'regenerate')}
          title="Ask again for a new answer, in a branch"
        >
          {busy ? 'Regenerating…' : 'Regenerate'}
        </button>
      ) : null}
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
