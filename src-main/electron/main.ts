import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  nativeImage,
  Notification,
  safeStorage,
  screen,
  session,
  shell,
  Tray,
} from 'electron';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { codexLimitsFrom, type CodexLimits } from '../host/codex-limits';
import { createHost, type Host } from '../host/create-host';
import { describeReach, openHostReach } from '../host/transports/host-reach';
import { startIpcTransport, type IpcTransport } from '../host/transports/ipc-transport';
import { startLocalSocketListener } from '../host/transports/local-socket-listener';
import { runningHostAddress } from '../host-client/running-host';
import { consoleLogger, type Logger } from '../runtime/ports/ports';
import type { ReachListener } from '../host/transports/reach-listener';
import { parsePassThrough } from '../runtime/shell/child-environment';
import { DataDirError, DataDirLockedError } from '../storage/data-dir-errors';
import { buildContentSecurityPolicy, enforceContentSecurityPolicy } from './content-security-policy';
import {
  describeStartupError,
  electronSqliteBindingPath,
  resolveDesktopDirs,
  resolveRendererUrl,
} from './desktop-paths';
import { notifyAutomations } from './automation-notifier';
import { notifyPendingInteractions } from './interaction-notifier';
import { guardNavigation } from './navigation-guards';
import { denyPermissionsByDefault } from './permissions';
import { drainBeforeQuit } from './quit-drain';
import { safeStorageCipher } from './safe-storage-cipher';
import {
  DESKTOP_PREFERENCES_FILE,
  lastWindowClosedAction,
  loadDesktopPreferences,
  saveDesktopPreferences,
} from './tray-keep-alive';
import { createMainWindow, focusWindow } from './window-factory';
import { captureWindowState, initialBounds, loadWindowState, saveWindowState, WINDOW_STATE_FILE } from './window-state';

/**
 * The Electron entry: wires the Host, the IPC transport, the window and the OS policies together.
 * Everything it uses is built and tested elsewhere; this file only decides the order.
 */

const logger = consoleLogger();
const dirs = resolveDesktopDirs(app.getPath('userData'), process.env.CAIRN_DATA_DIR);
// Before anything reads userData (the single-instance lock and the window state live there).
if (dirs.userDataDir !== null) app.setPath('userData', dirs.userDataDir);
app.enableSandbox();

if (!app.requestSingleInstanceLock()) {
  // Another Cairn is running with this profile; it has been told to come to the front.
  app.quit();
} else {
  start().catch((error: unknown) => {
    logger.error('Cairn failed to start', {
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    });
    app.exit(1);
  });
}

async function start(): Promise<void> {
  let mainWindow: BrowserWindow | null = null;
  app.on('second-instance', () => {
    if (mainWindow !== null) focusWindow(mainWindow);
  });
  // A terminal's Ctrl+C or a service manager's stop goes through the same drain as closing the window.
  process.on('SIGINT', () => app.quit());
  process.on('SIGTERM', () => app.quit());

  await app.whenReady();

  const appUrl = resolveRendererUrl({
    isPackaged: app.isPackaged,
    devServerUrl: process.env.ELECTRON_RENDERER_URL,
    rendererIndexPath: join(import.meta.dirname, '..', 'renderer', 'index.html'),
  });
  guardWebContents(appUrl);

  const host = await openDesktopHost(() => mainWindow);
  if (host === null) return;
  const transport: IpcTransport = startIpcTransport({ host, ipcMain, appUrl, logger });
  // Editors reach this host through `cairn acp`, over a 0600 socket in the data directory (docs/acp.md).
  const local = await startLocalSocketListener({ host, dataDir: dirs.dataDir, logger, pageUrl: null });
  const reach = await openDesktopReach(host);
  drainBeforeQuit(app, {
    drain: async () => {
      host.drain();
      await reach?.close();
      transport.close();
      await local.close();
      await host.close();
    },
    logger,
  });
  notifyDesktop(host, {
    focusApp: () => {
      if (mainWindow !== null) focusWindow(mainWindow);
    },
    openOrFocus: () => {
      if (mainWindow === null) openWindow();
      else focusWindow(mainWindow);
    },
  });
  logger.info('Cairn desktop ready', { dataDir: dirs.dataDir });

  const stateFile = join(app.getPath('userData'), WINDOW_STATE_FILE);
  const openWindow = () => {
    const workAreas = screen.getAllDisplays().map((display) => display.workArea);
    const window = createMainWindow({
      preloadPath: join(import.meta.dirname, '..', 'preload', 'index.cjs'),
      bounds: initialBounds(loadWindowState(stateFile), workAreas),
    });
    const detach = transport.attachWindow(window.webContents);
    window.on('close', () => {
      try {
        saveWindowState(stateFile, captureWindowState(window));
      } catch (error) {
        logger.warn('Could not remember the window position', { error: String(error) });
      }
    });
    window.on('closed', () => {
      detach();
      if (mainWindow === window) mainWindow = null;
    });
    window
      .loadURL(appUrl)
      .catch((error: unknown) => logger.error('The window could not load the app', { error: String(error) }));
    mainWindow = window;
  };
  openWindow();

  // macOS keeps an app running with no windows; clicking the dock icon opens one again.
  app.on('activate', () => {
    if (mainWindow === null) openWindow();
  });
  keepInTrayForScheduledWork(host, {
    openOrFocus: () => (mainWindow === null ? openWindow() : focusWindow(mainWindow)),
  });
}

/** The page's policies: its content security policy, no permission it did not ask for, no navigation away from the app. */
function guardWebContents(appUrl: string): void {
  enforceContentSecurityPolicy(
    session.defaultSession,
    buildContentSecurityPolicy(appUrl.startsWith('file:') ? null : appUrl),
  );
  denyPermissionsByDefault(session.defaultSession, appUrl);
  app.on('web-contents-created', (_event, contents) => {
    guardNavigation(contents, {
      appUrl,
      openExternal: (url) => shell.openExternal(url),
      onBlocked: (what, url) => logger.warn('Blocked a page action', { what, url: url.slice(0, 200) }),
    });
  });
}

/**
 * The Host over the desktop's data directory, with the native pickers; a damaged database is salvaged
 * when the person agrees. Null when it cannot start: the person has been told and the app is exiting.
 */
async function openDesktopHost(currentWindow: () => BrowserWindow | null): Promise<Host | null> {
  const bindingCandidate = electronSqliteBindingPath(app.getAppPath());
  const nativeBinding = existsSync(bindingCandidate) ? bindingCandidate : null;
  const secretCipher = safeStorageCipher(safeStorage);
  const codex = desktopCodexLimits(logger);
  const commandEnvPassThrough = desktopPassThrough(logger);
  const openHost = (salvage: boolean) =>
    createHost({
      dataDir: dirs.dataDir,
      logger,
      salvage,
      codex,
      commandEnvPassThrough,
      // CAIRN_SANDBOX=off: never sandbox agents' commands (Auto is then refused), as serve --sandbox off.
      sandbox: process.env.CAIRN_SANDBOX === 'off' ? 'off' : 'detect',
      acpLauncher: desktopAcpLauncher(),
      ...(nativeBinding === null ? {} : { nativeBinding }),
      ...(secretCipher === null ? {} : { secretCipher }),
      desktop: {
        async pickFolder() {
          const options = {
            properties: ['openDirectory', 'createDirectory'] as Array<'openDirectory' | 'createDirectory'>,
          };
          const mainWindow = currentWindow();
          const picked =
            mainWindow === null
              ? await dialog.showOpenDialog(options)
              : await dialog.showOpenDialog(mainWindow, options);
          return picked.canceled ? null : (picked.filePaths[0] ?? null);
        },
        async saveFile(fileName, content) {
          const options = { defaultPath: join(app.getPath('downloads'), fileName) };
          const mainWindow = currentWindow();
          const picked =
            mainWindow === null
              ? await dialog.showSaveDialog(options)
              : await dialog.showSaveDialog(mainWindow, options);
          if (picked.canceled || picked.filePath === undefined || picked.filePath === '') return null;
          await writeFile(picked.filePath, content, 'utf8');
          return picked.filePath;
        },
      },
    });
  let host: Host;
  try {
    host = await openHost(false).catch(async (error: unknown) => {
      if (!(error instanceof DataDirError) || error.problem !== 'damaged_database') throw error;
      const choice = await dialog.showMessageBox({
        type: 'warning',
        title: 'Cairn',
        message: "Cairn's database is damaged",
        detail: `${error.message}\n\nSalvage moves it aside and starts Cairn with what could be read.`,
        buttons: ['Salvage and start', 'Quit'],
        defaultId: 0,
        cancelId: 1,
      });
      if (choice.response !== 0) throw error;
      return openHost(true);
    });
  } catch (error) {
    if (error instanceof DataDirLockedError && (await offerRunningHost())) return null;
    logger.error('The host failed to start', { error: error instanceof DataDirError ? error.message : String(error) });
    dialog.showErrorBox('Cairn could not start', describeStartupError(error, nativeBinding));
    app.exit(1);
    return null;
  }
  return host;
}

/** `cairn acp`'s launcher when the app runs from a checkout (not packaged): editors run it. */
function desktopAcpLauncher(): string | null {
  const launcher = join(app.getAppPath(), 'bin', 'cairn.mjs');
  return !app.isPackaged && existsSync(launcher) ? launcher : null;
}

/**
 * The data directory's host is already running headless (started by `cairn acp` or `npm start`):
 * the desktop offers its page in the browser instead of a second host. True when it was offered
 * (the app is exiting); false when no host answers on the directory's socket.
 */
async function offerRunningHost(): Promise<boolean> {
  const running = await runningHostAddress(dirs.dataDir);
  if (running === null || running.pageUrl === null) return false;
  const choice = await dialog.showMessageBox({
    type: 'info',
    title: 'Cairn',
    message: 'Cairn is already running for this data directory',
    detail: `A Cairn host started without the desktop app (by an editor through cairn acp, or by npm start) holds ${dirs.dataDir}. Open it in your browser to use the same sessions.`,
    buttons: ['Open in browser', 'Quit'],
    defaultId: 0,
    cancelId: 1,
  });
  if (choice.response === 0) await shell.openExternal(running.pageUrl);
  app.exit(0);
  return true;
}

/**
 * The listener other devices reach (docs/remote.md), in this process as in the headless host: off until
 * Settings → Devices turns it on, then HTTPS/WSS on the chosen address, serving the built renderer to
 * paired devices. A problem leaves it closed (said in Settings → Devices); the app runs on regardless.
 */
async function openDesktopReach(host: Host): Promise<ReachListener | null> {
  const rendererDir = join(import.meta.dirname, '..', 'renderer');
  try {
    const reach = await openHostReach({
      host,
      dataDir: dirs.dataDir,
      staticDir: existsSync(join(rendererDir, 'index.html')) ? rendererDir : null,
      logger,
    });
    const reached = describeReach(reach.status());
    if (reached?.ok === true) logger.info(reached.text);
    else if (reached !== null) logger.warn(reached.text);
    return reach;
  } catch (error) {
    logger.error('Other devices cannot reach this Cairn', { error: String(error) });
    return null;
  }
}

/** Notifications for pending interactions and automations while Cairn is not in front. */
function notifyDesktop(host: Host, window: { focusApp: () => void; openOrFocus: () => void }): void {
  const showNotification = ({ title, body, onClick }: { title: string; body: string; onClick: () => void }) => {
    if (!Notification.isSupported()) return;
    const notification = new Notification({ title, body });
    notification.on('click', onClick);
    notification.show();
  };
  notifyPendingInteractions({
    subscribe: (listener) => host.subscribe(listener),
    isFocused: () => BrowserWindow.getFocusedWindow() !== null,
    show: showNotification,
    focusApp: window.focusApp,
  });
  notifyAutomations({
    subscribe: (listener) => host.subscribe(listener),
    isFocused: () => BrowserWindow.getFocusedWindow() !== null,
    show: showNotification,
    focusApp: window.openOrFocus,
  });
}

/**
 * Scheduled tasks fire only while the host runs: with some scheduled, closing the last window keeps
 * Cairn in the tray (menu bar), unless the person chose to quit instead (a checkbox in the tray menu).
 */
function keepInTrayForScheduledWork(host: Host, window: { openOrFocus: () => void }): void {
  const preferencesFile = join(app.getPath('userData'), DESKTOP_PREFERENCES_FILE);
  let tray: Tray | null = null;
  const trayMenu = () =>
    Menu.buildFromTemplate([
      { label: 'Open Cairn', click: window.openOrFocus },
      {
        label: 'Quit when the last window closes',
        type: 'checkbox',
        checked: loadDesktopPreferences(preferencesFile).quitWhenWindowsClose,
        click: (item) => saveDesktopPreferences(preferencesFile, { quitWhenWindowsClose: item.checked }),
      },
      { type: 'separator' },
      { label: 'Quit Cairn', click: () => app.quit() },
    ]);
  const hasScheduledWork = async (): Promise<boolean> => {
    const [tasks, review] = await Promise.all([host.invoke('schedule.list', {}), host.invoke('dailyReview.get', {})]);
    return (
      (tasks.ok && tasks.result.tasks.some((task) => task.enabled && task.nextRunAt !== null)) ||
      (review.ok && review.result.config.enabled)
    );
  };
  app.on('window-all-closed', () => {
    void hasScheduledWork().then((scheduled) => {
      const action = lastWindowClosedAction({
        platform: process.platform,
        hasScheduledWork: scheduled,
        quitWhenWindowsClose: loadDesktopPreferences(preferencesFile).quitWhenWindowsClose,
      });
      if (action === 'quit') app.quit();
      if (action !== 'tray' || tray !== null) return;
      tray = new Tray(
        nativeImage.createFromPath(join(app.getAppPath(), 'build', 'icon.png')).resize({ width: 16, height: 16 }),
      );
      tray.setToolTip('Cairn keeps running for your scheduled tasks');
      tray.setContextMenu(trayMenu());
      tray.on('click', window.openOrFocus);
    });
  });
}

/** The desktop app's Codex limits come from the environment; a value that is not one keeps the defaults, said in the log. */
function desktopCodexLimits(logger: Logger): CodexLimits {
  try {
    return codexLimitsFrom({}, process.env);
  } catch (error) {
    logger.warn('Codex limits in the environment were not used', {
      error: error instanceof Error ? error.message : String(error),
    });
    return {};
  }
}

/** CAIRN_PASS_ENV for the desktop app: names agents' commands still get; a bad list is logged and ignored. */
function desktopPassThrough(logger: Logger): string[] {
  try {
    return parsePassThrough(process.env.CAIRN_PASS_ENV);
  } catch (error) {
    logger.warn('Ignoring CAIRN_PASS_ENV', { error: error instanceof Error ? error.message : String(error) });
    return [];
  }
}
