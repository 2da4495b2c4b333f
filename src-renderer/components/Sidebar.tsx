import { Fragment, lazy, memo, Suspense, useMemo } from 'react';
import { groupBranches, type BranchGroups } from '../state/branch-groups';
import { useAppStore, useStoreApi } from '../state/store-context';
import { listTabStop, topLevelIds } from './subagents/session-list-layout';
import { CairnMark, GearIcon, KeyboardIcon, PlusIcon, SearchIcon, SidebarIcon } from './icons';
import { TOGGLE_SIDEBAR_KEY } from '../state/sidebar-layout';
import { SEARCH_INPUT_ID } from './focus-targets';
import { onSessionListKeyDown } from './session-list-keys';
import { SessionRow } from './SessionRow';
import { newSessionLabel, shortcutLabel } from './shortcut-label';
import { WaitingList } from './WaitingList';
import { WorkHubEntry } from './workhub/WorkHubEntry';
import { AutomationsEntry } from './automations/AutomationsEntry';
import { retryingImport } from '../platform/retrying-import';
import { HostNameSlot } from './HostNameSlot';
import { useRowsInSteps } from './rows-in-steps';
import { remotePage } from '../platform/device-page';

/** Matches in messages load with the first search. */
const MessageSearchResults = lazy(() =>
  retryingImport(() => import('./MessageSearchResults')).then((module) => ({ default: module.MessageSearchResults })),
);

/** A session's child agents and its branches, nested under its row, load with the first session that has any. */
const AgentChildren = lazy(() =>
  retryingImport(() => import('./subagents/AgentChildren')).then((module) => ({ default: module.AgentChildren })),
);
const BranchGroup = lazy(() =>
  retryingImport(() => import('./BranchGroup')).then((module) => ({ default: module.BranchGroup })),
);

/** Sessions drawn with the sidebar's first render: more than a screen holds; the rest follow at once (rows-in-steps.ts). */
const FIRST_ROWS = 40;

/** The sessions sidebar: new session, search, the active/archived list and its row actions. */
export function Sidebar() {
  const store = useStoreApi();
  const loadedIds = useAppStore((state) => state.sessions.listIds);
  const pinnedId = useAppStore((state) => state.automations.review?.sessionId ?? null);
  const archivedView = useAppStore((state) => state.sessions.view.archived);
  // The Daily review session is pinned at the top of the active list.
  const listIds =
    pinnedId !== null && !archivedView && loadedIds.includes(pinnedId)
      ? [pinnedId, ...loadedIds.filter((id) => id !== pinnedId)]
      : loadedIds;
  const listLoaded = useAppStore((state) => state.sessions.listLoaded);
  const hasMore = useAppStore((state) => state.sessions.nextCursor !== null);
  const searchText = useAppStore((state) => state.searchText);
  const selectedId = useAppStore((state) => state.selectedSessionId);
  // Child agents' sessions are nested under their root (closed by default).
  const agentLinks = useAppStore((state) => state.agents.links);
  const expandedRoots = useAppStore((state) => state.expandedAgentRoots);
  // A branch is listed under the session it branched from.
  const byId = useAppStore((state) => state.sessions.byId);
  const groups = useMemo(
    () => groupBranches(topLevelIds(listIds, agentLinks), (sessionId) => byId[sessionId]?.branchOf ?? null),
    [listIds, agentLinks, byId],
  );
  const topIds = groups.top;
  const closedGroups = useAppStore((state) => state.closedBranchGroups);
  const tabStopId =
    selectedId !== null && groups.top !== listIds && isShownBranch(groups, selectedId, closedGroups)
      ? selectedId
      : listTabStop(topIds, selectedId, agentLinks, expandedRoots);
  const actions = store.getState();
  const drawn = useRowsInSteps(topIds.length, FIRST_ROWS);
  const drawnIds = drawn < topIds.length ? topIds.slice(0, drawn) : topIds;

  return (
    <nav className="sidebar" aria-label="Sessions">
      <SidebarTop />

      <WorkHubEntry />
      <AutomationsEntry />

      <WaitingList />

      <div className="sidebar-list-header">
        <h2>{archivedView ? 'Archived' : 'Sessions'}</h2>
        <button type="button" className="text-button" onClick={() => actions.setArchivedView(!archivedView)}>
          {archivedView ? 'Show active' : 'Show archived'}
        </button>
      </div>

      <div className="sidebar-scroll">
        {listIds.length > 0 ? (
          <ul
            className="session-list"
            role="list"
            aria-label="Session list (arrow keys move between sessions)"
            onKeyDown={onSessionListKeyDown}
          >
            {drawnIds.map((sessionId) => (
              <Fragment key={sessionId}>
                <SessionRow sessionId={sessionId} pinned={sessionId === pinnedId} tabStop={sessionId === tabStopId} />
                <NestedUnder sessionId={sessionId} groups={groups} tabStopId={tabStopId} />
              </Fragment>
            ))}
          </ul>
        ) : listLoaded ? (
          <p className="sidebar-empty">
            {searchText.trim() !== ''
              ? `No sessions match “${searchText.trim()}”.`
              : archivedView
                ? 'Nothing archived. Archived sessions rest here, out of the way.'
                : 'No sessions yet.'}
          </p>
        ) : null}
        {hasMore && drawn === topIds.length ? (
          <button type="button" className="text-button load-more" onClick={() => void actions.loadMoreSessions()}>
            Show more
          </button>
        ) : null}
        {searchText.trim() === '' ? null : (
          <Suspense fallback={null}>
            <MessageSearchResults />
          </Suspense>
        )}
      </div>

      <SidebarFooter />
    </nav>
  );
}

/** The sidebar's head: the app's name with Hide sidebar, New session, and the search field. */
function SidebarTop() {
  const store = useStoreApi();
  const searchText = useAppStore((state) => state.searchText);
  const actions = store.getState();
  return (
    <div className="sidebar-top">
      <div className="brand">
        <CairnMark />
        <span className="brand-name">Cairn</span>
        <HostNameSlot variant="chip" />
        <button
          type="button"
          className="icon-button sidebar-hide"
          aria-label="Hide sidebar"
          aria-expanded="true"
          title={`Hide sidebar (${shortcutLabel(`Shift+${TOGGLE_SIDEBAR_KEY}`)})`}
          onClick={() => actions.setSidebarShown(false)}
        >
          <SidebarIcon />
        </button>
      </div>
      <button
        type="button"
        className="new-session-button"
        aria-label="New session"
        title={`New session (${newSessionLabel()})`}
        onClick={() => void actions.createSession()}
      >
        <PlusIcon />
        <span aria-hidden="true">New session</span>
      </button>
      <label className="search-field">
        <SearchIcon />
        <input
          id={SEARCH_INPUT_ID}
          type="search"
          aria-label="Search sessions"
          placeholder="Search"
          value={searchText}
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => actions.setSearchText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape' && event.currentTarget.value !== '') {
              event.preventDefault();
              event.stopPropagation();
              actions.setSearchText('');
            }
          }}
        />
        <kbd className="search-shortcut" aria-hidden="true">
          {shortcutLabel('K')}
        </kbd>
      </label>
    </div>
  );
}

/** The sidebar's foot: Settings, the keyboard shortcuts, and where sessions are kept. */
function SidebarFooter() {
  const actions = useStoreApi().getState();
  return (
    <div className="sidebar-footer">
      <button
        type="button"
        className="sidebar-footer-button"
        title={`Settings (${shortcutLabel(',')})`}
        onClick={() => actions.openSettings()}
      >
        <GearIcon />
        Settings
      </button>
      <button
        type="button"
        className="icon-button keys-hint"
        aria-label="Keyboard shortcuts"
        title="Keyboard shortcuts (?)"
        onClick={() => actions.setHelpOpen(true)}
      >
        <KeyboardIcon />
      </button>
      <span className="sidebar-footer-note">
        {remotePage() ? 'Your sessions stay on the Cairn host' : 'Your sessions stay on this machine'}
      </span>
    </div>
  );
}

/** Whether `sessionId` is a branch row on screen (in a group, every group above it open). */
function isShownBranch(groups: BranchGroups, sessionId: string, closed: Readonly<Record<string, true>>): boolean {
  for (const [origin, branchIds] of Object.entries(groups.branchesOf)) {
    if (!branchIds.includes(sessionId)) continue;
    return closed[origin] !== true && (groups.top.includes(origin) || isShownBranch(groups, origin, closed));
  }
  return false;
}

/** Under a session's row: its child agents and its branches, when it has any. */
const NestedUnder = memo(function NestedUnder({
  sessionId,
  groups,
  tabStopId,
}: {
  sessionId: string;
  groups: BranchGroups;
  tabStopId: string | null;
}) {
  const hasChildren = useAppStore((state) => (state.agents.childIdsByRoot[sessionId]?.length ?? 0) > 0);
  const hasBranches = (groups.branchesOf[sessionId]?.length ?? 0) > 0;
  if (!hasChildren && !hasBranches) return null;
  return (
    <Suspense fallback={null}>
      {hasChildren ? <AgentChildren rootSessionId={sessionId} tabStopId={tabStopId} /> : null}
      {hasBranches ? <BranchGroup sessionId={sessionId} groups={groups} tabStopId={tabStopId} /> : null}
    </Suspense>
  );
});
