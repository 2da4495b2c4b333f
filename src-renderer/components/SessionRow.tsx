import { memo, useEffect, useRef } from 'react';
import type { SessionActivity } from '../../src-shared/model';
import { sessionTimeLabel } from '../format/dates';
import { selectHostUnreachable } from '../state/selectors';
import { useAppFields, useStoreApi } from '../state/store-context';
import { goalLabel, goalTone } from '../format/goal';
import { ArchiveIcon, PencilIcon, TargetIcon, TrashIcon, UnarchiveIcon } from './icons';

const BADGED: ReadonlySet<SessionActivity> = new Set(['running', 'waiting', 'interrupted', 'failed']);

/**
 * One session in the sidebar: select on click, rename on double-click or Rename, archive, delete.
 * Only the row that is the list's Tab stop (`tabStop`) is in the Tab order; arrow keys reach the rest.
 */
export const SessionRow = memo(function SessionRow({
  sessionId,
  tabStop = true,
  pinned = false,
}: {
  sessionId: string;
  tabStop?: boolean;
  pinned?: boolean;
}) {
  const store = useStoreApi();
  // One subscription a row (a list of hundreds of rows runs every row's selectors on each change).
  const { title, activity, updatedAt, archived, selected, renaming, goalStatus, goalText, unknown } = useAppFields(
    (state) => {
      const session = state.sessions.byId[sessionId];
      const goal = state.goals[sessionId];
      const activity: SessionActivity = session?.activity ?? 'idle';
      return {
        title: session?.title ?? '',
        activity,
        updatedAt: session?.updatedAt ?? 0,
        archived: session?.archived ?? false,
        selected: state.selectedSessionId === sessionId,
        renaming: state.renamingId === sessionId,
        goalStatus: goal?.status ?? null,
        goalText: goal === undefined || goal === null ? '' : goalLabel(goal),
        // With the host unreachable, "running" or "waiting" is only what was last seen.
        unknown: selectHostUnreachable(state) && (activity === 'running' || activity === 'waiting'),
      };
    },
  );
  const actions = store.getState();
  // A row with a status puts it on a line of its own, so the title keeps the row's full width.
  const hasStatus =
    unknown || BADGED.has(activity) || (goalStatus !== null && goalStatus !== 'active' && goalStatus !== 'complete');
  // The open session's row comes into view when it becomes the open one (after a reload, from a
  // shortcut, a search or the WorkHub); a row already in view does not move.
  const rowRef = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (selected) rowRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [selected]);

  return (
    <li
      ref={rowRef}
      className={`session-row${selected ? ' is-selected' : ''}`}
      data-testid="session-row"
      data-session-id={sessionId}
    >
      {renaming ? (
        <RenameInput sessionId={sessionId} title={title} />
      ) : (
        <button
          type="button"
          className={`session-row-main${hasStatus ? ' has-status' : ''}`}
          aria-current={selected ? 'page' : undefined}
          tabIndex={tabStop ? 0 : -1}
          onClick={() => actions.selectSession(sessionId)}
          onDoubleClick={() => actions.setRenaming(sessionId)}
        >
          <span className="session-row-title">{title}</span>
          <span className="session-row-meta">
            {pinned ? (
              <span
                className="session-badge badge-pinned"
                data-testid="pinned-badge"
                title="Pinned: the Daily review writes here"
              >
                pinned
              </span>
            ) : null}
            {goalStatus !== null ? (
              <span
                className={`goal-badge tone-${goalTone(goalStatus)}`}
                data-testid="goal-badge"
                data-status={goalStatus}
                title={`Goal: ${goalText}`}
              >
                <TargetIcon />
                <span className="visually-hidden">Goal: </span>
                <span className={goalStatus === 'active' || goalStatus === 'complete' ? 'visually-hidden' : undefined}>
                  {goalText}
                </span>
              </span>
            ) : null}
            {unknown ? (
              <span
                className="session-badge badge-unknown"
                data-testid="session-badge"
                title={`Last seen ${activity}; unknown until Cairn reconnects`}
              >
                unknown
              </span>
            ) : BADGED.has(activity) ? (
              <span className={`session-badge badge-${activity}`} data-testid="session-badge">
                {activity}
              </span>
            ) : null}
            <span className="session-row-time">{sessionTimeLabel(updatedAt, Date.now())}</span>
          </span>
        </button>
      )}
      {renaming ? null : (
        <div className="session-row-actions">
          <button
            type="button"
            className="icon-button"
            aria-label="Rename"
            tabIndex={-1}
            title="Rename"
            onClick={() => actions.setRenaming(sessionId)}
          >
            <PencilIcon />
          </button>
          <button
            type="button"
            className="icon-button"
            aria-label={archived ? 'Unarchive' : 'Archive'}
            tabIndex={-1}
            title={archived ? 'Unarchive' : 'Archive'}
            onClick={() => void actions.setSessionArchived(sessionId, !archived)}
          >
            {archived ? <UnarchiveIcon /> : <ArchiveIcon />}
          </button>
          <button
            type="button"
            className="icon-button danger"
            aria-label="Delete"
            tabIndex={-1}
            title="Delete"
            onClick={() => actions.askToDelete(sessionId)}
          >
            <TrashIcon />
          </button>
        </div>
      )}
    </li>
  );
});

/** The title in place, editable: Enter saves, Esc cancels, leaving the field saves. */
function RenameInput({ sessionId, title }: { sessionId: string; title: string }) {
  const store = useStoreApi();
  const done = useRef(false);
  const finish = (save: boolean, value: string) => {
    if (done.current) return;
    done.current = true;
    if (save) void store.getState().renameSession(sessionId, value);
    else store.getState().setRenaming(null);
  };
  return (
    <input
      className="session-rename"
      aria-label="Session title"
      defaultValue={title}
      maxLength={200}
      autoFocus
      onFocus={(event) => event.currentTarget.select()}
      onKeyDown={(event) => {
        if (event.key === 'Enter') {
          event.preventDefault();
          finish(true, event.currentTarget.value);
        } else if (event.key === 'Escape') {
          event.preventDefault();
          event.stopPropagation();
          finish(false, '');
        }
      }}
      onBlur={(event) => finish(true, event.currentTarget.value)}
    />
  );
}
