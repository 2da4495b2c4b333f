import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { HostLink } from './bridge/host-link';
import { selectHostLink } from './bridge/select-host-link';
import { App } from './components/App';
import { WindowErrorBoundary } from './components/WindowErrorBoundary';
import { preloadSoonNeededChunks } from './components/preload-chunks';
import { browserLocation } from './platform/app-location';
import { browserHostedPage, chunkSource } from './platform/chunk-source';
import { animationFrameScheduler } from './platform/frame-scheduler';
import { newId } from './platform/new-id';
import { appearanceRoot } from './platform/appearance-root';
import { inDesktopApp } from './platform/desktop-bridge';
import { backgroundNotifier, notificationPermission, type Notifier } from './platform/notifier';
import { reloadOnNewToken } from './platform/token-storage';
import { connectStoreToHost } from './state/connect-store';
import { browserDraftStorage } from './platform/draft-storage';
import { createAppStore } from './state/store';
import { StoreProvider } from './state/store-context';
import './styles/theme.css';
import './styles/layout.css';
import './styles/context.css';
import './styles/sidebar.css';
import './styles/transcript.css';
import './styles/composer.css';
import './styles/markdown.css';
import './styles/overlays.css';
import './styles/forms.css';
import './styles/settings.css';
import './styles/connections.css';
import './styles/interactions.css';
import './styles/goals.css';
import './styles/workspace.css';
import './styles/changes.css';
import './styles/folder-browser.css';
import './styles/tool-calls.css';
import './styles/terminal.css';
import './styles/memory-branches.css';
import './styles/mcp.css';
import './styles/chat.css';
import './styles/agents.css';
import './styles/phone.css';

reloadOnNewToken(window);
const root = document.getElementById('root');
if (root === null) throw new Error('index.html has no #root element');
const link = selectHostLink(window);
// A page with no token and no credential offers to pair this device; it loads only there.
if (link === null)
  void import('./components/pairing/PairingPage').then((module) => module.showPairingPage(root, window));
else startApp(link, root);

function startApp(link: HostLink, root: HTMLElement): void {
  const desktop = inDesktopApp(window);
  // In a browser tab the chunks come from the host: lazy loads wait while it is away, and one that failed reloads the page once it is back.
  if (!desktop) chunkSource.follow(link, browserHostedPage(window));
  // A browser tab's service worker (page-worker.ts, its own chunk, which never rejects): notes go through it once it runs.
  let notifyViaWorker: Notifier | null = null;
  if (!desktop)
    void import('./platform/page-worker').then((module) =>
      module.registerPageWorker(window, (show) => (notifyViaWorker = show)),
    );
  const store = createAppStore({
    link,
    frames: animationFrameScheduler(window),
    location: browserLocation(window),
    newId,
    timers: {
      setTimeout: (callback, ms) => window.setTimeout(callback, ms),
      clearTimeout: (handle) => window.clearTimeout(handle as number),
    },
    draftStorage: browserDraftStorage(() => window.localStorage),
    // The desktop app's main process notifies about waiting interactions itself; a browser tab does, where already permitted.
    ...(desktop
      ? {}
      : {
          notify: backgroundNotifier(window, () => notifyViaWorker),
          notificationPermission: notificationPermission(window),
        }),
    applyAppearance: appearanceRoot(document),
  });
  connectStoreToHost(store, link);

  createRoot(root).render(
    <StrictMode>
      <WindowErrorBoundary>
        <StoreProvider store={store}>
          <App />
        </StoreProvider>
      </WindowErrorBoundary>
    </StrictMode>,
  );
  preloadSoonNeededChunks(window);
}
