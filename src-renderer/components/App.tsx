import { WORKHUB_SESSION_ID } from '../../src-shared/workhub-model';
import { useGlobalShortcuts } from '../hooks/use-global-shortcuts';
import { useSidebarShown } from '../hooks/use-sidebar-shown';
import { useAppStore, useStoreApi } from '../state/store-context';
import { ConnectionBanner } from './ConnectionBanner';
import { DeleteSessionDialog } from './DeleteSessionDialog';
import { GoalDialogs } from './GoalDialogs';
import { ChatDialogs } from './ChatDialogs';
import { HelpPanel } from './HelpPanel';
import { SessionView } from './SessionView';
import { SettingsDialog } from './SettingsDialog';
import { Sidebar } from './Sidebar';
import { SidebarRail } from './SidebarRail';
import { SkipLink } from './SkipLink';
import { Toasts } from './Toasts';
import { WelcomeEmpty } from './WelcomeEmpty';
import { FullModeDialog } from './workspace/FullModeDialog';
import { WorkHubView } from './workhub/WorkHubView';
import { AutomationsView } from './automations/AutomationsView';

/**
 * The window: connection banner and error toasts (in the layout, so they never cover a control),
 * sessions sidebar (or, hidden, its narrow rail), the open session, and the dialogs that float above them.
 */
export function App() {
  const store = useStoreApi();
  useGlobalShortcuts(store);
  const selectedSessionId = useAppStore((state) => state.selectedSessionId);
  const automationsOpen = useAppStore((state) => state.automations.open);
  const sidebarShown = useSidebarShown();
  return (
    <div className="app">
      <SkipLink />
      <ConnectionBanner />
      <Toasts />
      <div className="app-body">
        {sidebarShown ? <Sidebar /> : <SidebarRail />}
        <main className="main-pane">
          {selectedSessionId === null && automationsOpen ? (
            <AutomationsView />
          ) : selectedSessionId === null ? (
            <WelcomeEmpty />
          ) : selectedSessionId === WORKHUB_SESSION_ID ? (
            <WorkHubView />
          ) : (
            <SessionView sessionId={selectedSessionId} />
          )}
        </main>
      </div>
      <DeleteSessionDialog />
      <HelpPanel />
      <SettingsDialog />
      <GoalDialogs />
      <ChatDialogs />
      <FullModeDialog />
    </div>
  );
}
