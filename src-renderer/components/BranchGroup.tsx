import { memo, type KeyboardEvent } from 'react';
import { branchesUnder, type BranchGroups } from '../state/branch-groups';
import { useAppStore, useStoreApi } from '../state/store-context';
import { DisclosureIcon } from './subagents/AgentStatusChip';
import { SessionRow } from './SessionRow';

const count = (n: number) => (n === 1 ? '1 branch' : `${n} branches`);

/**
 * Under a session in the sidebar: the branches made from it (Edit, Regenerate, Rewind), indented behind
 * a disclosure that says how many there are. Open unless the person closed it; closed, it is marked
 * while one of its branches is the open session. Right opens and Left closes it from the keyboard.
 */
export const BranchGroup = memo(function BranchGroup({
  sessionId,
  groups,
  tabStopId,
}: {
  sessionId: string;
  groups: BranchGroups;
  tabStopId: string | null;
}) {
  const store = useStoreApi();
  const branchIds = groups.branchesOf[sessionId];
  const closed = useAppStore((state) => state.closedBranchGroups[sessionId] === true);
  const holdsSelected = useAppStore(
    (state) => state.selectedSessionId !== null && branchesUnder(groups, sessionId).includes(state.selectedSessionId),
  );
  const title = useAppStore((state) => state.sessions.byId[sessionId]?.title ?? 'this session');
  if (branchIds === undefined || branchIds.length === 0) return null;
  const open = !closed;
  const listId = `branches-of-${sessionId}`;
  const setOpen = (next: boolean) => store.getState().setBranchGroupOpen(sessionId, next);
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    event.preventDefault();
    event.stopPropagation();
    if ((event.key === 'ArrowRight') !== open) setOpen(!open);
  };
  const total = branchesUnder(groups, sessionId).length;
  return (
    <li className="branch-group" data-testid="branch-group" data-origin-session-id={sessionId}>
      <button
        type="button"
        className={`branch-disclosure${holdsSelected && !open ? ' holds-selected' : ''}`}
        data-testid="branch-group-toggle"
        aria-expanded={open}
        aria-controls={listId}
        tabIndex={-1}
        onClick={() => setOpen(!open)}
        onKeyDown={onKeyDown}
      >
        <span className="branch-disclosure-chevron" aria-hidden="true">
          <DisclosureIcon />
        </span>
        {count(total)}
      </button>
      <ul id={listId} className="branch-list" role="list" aria-label={`Branches of ${title}`} hidden={!open}>
        {open
          ? branchIds.map((branchId) => (
              <BranchRows key={branchId} sessionId={branchId} groups={groups} tabStopId={tabStopId} />
            ))
          : null}
      </ul>
    </li>
  );
});

function BranchRows({
  sessionId,
  groups,
  tabStopId,
}: {
  sessionId: string;
  groups: BranchGroups;
  tabStopId: string | null;
}) {
  return (
    <>
      <SessionRow sessionId={sessionId} tabStop={sessionId === tabStopId} />
      <BranchGroup sessionId={sessionId} groups={groups} tabStopId={tabStopId} />
    </>
  );
}
