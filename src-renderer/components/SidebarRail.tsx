import { WORKHUB_SESSION_ID } from '../../src-shared/workhub-model';
import { delegationsNeedingAttention } from '../state/reducers/workhub-reducer';
import { useAppStore, useStoreApi } from '../state/store-context';
import { TOGGLE_SIDEBAR_KEY } from '../state/sidebar-layout';
import { BellIcon, GearIcon, PlusIcon, SearchIcon, SidebarIcon, WaitingIcon } from './icons';
import { useAutomationsFollowed } from './automations/AutomationsEntry';
import { useDelegationsRead } from './workhub/WorkHubEntry';
import { WorkHubIcon } from './workhub/workhub-icons';
import { focusSearch } from './focus-targets';
import { newSessionLabel, shortcutLabel } from './shortcut-label';
import { SidebarDrawerBackdrop } from './SidebarDrawerBackdrop';

/**
 * What stays of the sidebar while it is hidden: show it again, start a session, search, what waits for
 * the person (with its count), the WorkHub (with its badge), Automations, and Settings. On a phone it
 * stays while the sidebar is open as a drawer over the page (`drawerOpen`), and adds the drawer's backdrop.
 */
export function SidebarRail({ drawerOpen = false }: { drawerOpen?: boolean }) {
  const store = useStoreApi();
  const actions = store.getState();
  const firstWaiting = useAppStore((state) => state.interactions.byId[state.interactions.pendingIds[0] ?? '']);
  const waiting = useAppStore((state) => state.interactions.pendingIds.length);
  const hubAttention = useAppStore(
    (state) => delegationsNeedingAttention(state.workhub.delegations, state.sessions.byId).length,
  );
  const inHub = useAppStore((state) => state.selectedSessionId === WORKHUB_SESSION_ID);
  const inAutomations = useAppStore((state) => state.automations.open && state.selectedSessionId === null);
  useDelegationsRead();
  useAutomationsFollowed();
  return (
    <nav className="sidebar-rail" aria-label="Sessions" data-testid="sidebar-rail">
      {drawerOpen ? <SidebarDrawerBackdrop /> : null}
      <button
        type="button"
        className="icon-button"
        aria-label="Show sidebar"
        aria-expanded={drawerOpen}
        title={`Show sidebar (${shortcutLabel(`Shift+${TOGGLE_SIDEBAR_KEY}`)})`}
        onClick={() => actions.setSidebarShown(true)}
      >
        <SidebarIcon />
      </button>
      <button
        type="button"
        className="icon-button"
        aria-label="New session"
        title={`New session (${newSessionLabel()})`}
        onClick={() => void actions.createSession()}
      >
        <PlusIcon />
      </button>
      <button
        type="button"
        className="icon-button"
        aria-label="Search sessions"
        title={`Search sessions (${shortcutLabel('K')})`}
        onClick={() => {
          actions.setSidebarShown(true);
          requestAnimationFrame(focusSearch);
        }}
      >
        <SearchIcon />
      </button>
      {firstWaiting === undefined ? null : (
        <button
          type="button"
          className="icon-button rail-button-waiting"
          data-testid="rail-waiting"
          aria-label={`Waiting for you: ${waiting} — go to the first`}
          title={`${waiting} waiting for you — go to the first`}
          onClick={() => actions.jumpToInteraction(firstWaiting)}
        >
          <WaitingIcon />
          <span className="rail-badge" aria-hidden="true">
            {waiting}
          </span>
        </button>
      )}
      <button
        type="button"
        className={`icon-button${inHub ? ' is-selected' : ''}`}
        data-testid="rail-workhub"
        aria-label={
          hubAttention > 0
            ? `WorkHub: ${hubAttention} ${hubAttention === 1 ? 'task needs' : 'tasks need'} you`
            : 'WorkHub'
        }
        aria-current={inHub ? 'page' : undefined}
        title="WorkHub"
        onClick={() => actions.openWorkhub()}
      >
        <WorkHubIcon />
        {hubAttention > 0 ? (
          <span className="rail-badge rail-badge-warning" aria-hidden="true">
            {hubAttention}
          </span>
        ) : null}
      </button>
      <button
        type="button"
        className={`icon-button${inAutomations ? ' is-selected' : ''}`}
        data-testid="rail-automations"
        aria-label="Automations"
        aria-current={inAutomations ? 'page' : undefined}
        title="Automations"
        onClick={() => actions.openAutomations()}
      >
        <BellIcon />
      </button>
      <span className="sidebar-rail-spacer" />
      <button
        type="button"
        className="icon-button"
        aria-label="Settings"
        title={`Settings (${shortcutLabel(',')})`}
        onClick={() => actions.openSettings()}
      >
        <GearIcon />
      </button>
    </nav>
  );
}
