import { useStoreApi } from '../state/store-context';
import { TOGGLE_SIDEBAR_KEY } from '../state/sidebar-layout';
import { GearIcon, PlusIcon, SearchIcon, SidebarIcon } from './icons';
import { focusSearch } from './focus-targets';
import { newSessionLabel, shortcutLabel } from './shortcut-label';

/** What stays of the sidebar while it is hidden: show it again, start a session, search, Settings. */
export function SidebarRail() {
  const store = useStoreApi();
  const actions = store.getState();
  return (
    <nav className="sidebar-rail" aria-label="Sessions" data-testid="sidebar-rail">
      <button
        type="button"
        className="icon-button"
        aria-label="Show sidebar"
        aria-expanded="false"
        title={`Show sidebar (${shortcutLabel(`Shift+${TOGGLE_SIDEBAR_KEY}`)})`}
        onClick={() => actions.setSidebarShown(true)}
      >
        <SidebarIcon />
      </button>
      <button type="button" className="icon-button" aria-label="New session" title={`New session (${newSessionLabel()})`} onClick={() => void actions.createSession()}>
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
      <span className="sidebar-rail-spacer" />
      <button type="button" className="icon-button" aria-label="Settings" title={`Settings (${shortcutLabel(',')})`} onClick={() => actions.openSettings()}>
        <GearIcon />
      </button>
    </nav>
  );
}
