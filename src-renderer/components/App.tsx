import { lazy, Suspense } from 'react';
import { WORKHUB_SESSION_ID } from '../../src-shared/workhub-model';
import { useGlobalShortcuts } from '../hooks/use-global-shortcuts';
import { useMediaQuery } from '../hooks/use-media-query';
import { useSidebarShown } from '../hooks/use-sidebar-shown';
import { useAppStore, useStoreApi } from '../state/store-context';
import { ConnectionBanner } from './ConnectionBanner';
import { SessionView } from './SessionView';
import { Sidebar } from './Sidebar';
import { SkipLink } from './SkipLink';
import { Toasts } from './Toasts';
import { WelcomeEmpty } from './WelcomeEmpty';
import { retryingImport } from '../platform/retrying-import';
import { PHONE_QUERY } from '../state/sidebar-layout';

/** Views and dialogs not needed for the first paint load when first opened (each its own chunk). */
const SettingsDialog = lazy(() =>
  retryingImport(() => import('./SettingsDialog')).then((module) => ({ default: module.SettingsDialog })),
);
const WorkHubView = lazy(() =>
  retryingImport(() => import('./workhub/WorkHubView')).then((module) => ({ default: module.WorkHubView })),
);
const AutomationsView = lazy(() =>
  retryingImport(() => import('./automations/AutomationsView')).then((module) => ({ default: module.AutomationsView })),
);
const DeleteSessionDialog = lazy(() =>
  retryingImport(() => import('./DeleteSessionDialog')).then((module) => ({ default: module.DeleteSessionDialog })),
);
const HelpPanel = lazy(() =>
  retryingImport(() => import('./HelpPanel')).then((module) => ({ default: module.HelpPanel })),
);
const GoalDialogs = lazy(() =>
  retryingImport(() => import('./GoalDialogs')).then((module) => ({ default: module.GoalDialogs })),
);
const ChatDialogs = lazy(() =>
  retryingImport(() => import('./ChatDialogs')).then((module) => ({ default: module.ChatDialogs })),
);
const FullModeDialog = lazy(() =>
  retryingImport(() => import('./workspace/FullModeDialog')).then((module) => ({ default: module.FullModeDialog })),
);
/** The hidden sidebar's rail (a window narrower than 1000 px, or the sidebar hidden); on a phone, the bar on top. */
const SidebarRail = lazy(() =>
  retryingImport(() => import('./SidebarRail')).then((module) => ({ default: module.SidebarRail })),
);

/** What a view shows while its code loads (a few milliseconds from disk). */
function ViewLoading() {
  return <div className="view-loading" role="status" aria-label="Loading" />;
}

/**
 * The window: connection banner (in the layout), notices (toasts, floating over the top right corner
 * rather than pushing the app down), sessions sidebar (or, hidden, its narrow rail), the open session,
 * and the dialogs that float above them. On a phone the rail stays, as a bar on top, and the sidebar is
 * a drawer over the page (the rail adds its backdrop, which closes it, as picking something in it does).
 */
export function App() {
  const store = useStoreApi();
  useGlobalShortcuts(store);
  const selectedSessionId = useAppStore((state) => state.selectedSessionId);
  const automationsOpen = useAppStore((state) => state.automations.open);
  const settingsOpen = useAppStore((state) => state.settings !== null);
  const deleteOpen = useAppStore((state) => state.pendingDeleteId !== null);
  const helpOpen = useAppStore((state) => state.helpOpen);
  const goalDialogOpen = useAppStore((state) => state.goalDialog !== null);
  const chatDialogOpen = useAppStore((state) => state.chatDialog !== null);
  const fullModeOpen = useAppStore((state) => state.confirmingFullFor !== null);
  const sidebarShown = useSidebarShown();
  const phone = useMediaQuery(PHONE_QUERY);
  return (
    <div className="app">
      <SkipLink />
      <ConnectionBanner />
      <Toasts />
      <div className="app-body">
        {sidebarShown ? <Sidebar /> : null}
        {sidebarShown && !phone ? null : (
          // While its code loads the rail keeps its place, empty, so the session beside it does not shift.
          <Suspense fallback={<div className="sidebar-rail" />}>
            <SidebarRail drawerOpen={sidebarShown} />
          </Suspense>
        )}
        <main className="main-pane">
          <Suspense fallback={<ViewLoading />}>
            {selectedSessionId === null && automationsOpen ? (
              <AutomationsView />
            ) : selectedSessionId === null ? (
              <WelcomeEmpty />
            ) : selectedSessionId === WORKHUB_SESSION_ID ? (
              <WorkHubView />
            ) : (
              <SessionView sessionId={selectedSessionId} />
            )}
          </Suspense>
        </main>
      </div>
      {/* Each dialog's code loads when it first opens; it decides itself what to show. */}
      <Suspense fallback={null}>
        {deleteOpen ? <DeleteSessionDialog /> : null}
        {helpOpen ? <HelpPanel /> : null}
        {settingsOpen ? <SettingsDialog /> : null}
        {goalDialogOpen ? <GoalDialogs /> : null}
        {chatDialogOpen ? <ChatDialogs /> : null}
        {fullModeOpen ? <FullModeDialog /> : null}
      </Suspense>
    </div>
  );
}
