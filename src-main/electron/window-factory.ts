import { BrowserWindow, type WebPreferences } from 'electron';
import { MIN_WINDOW_SIZE, type InitialBounds } from './window-state';

/**
 * The main window: sandboxed, context-isolated, no Node in the page, and only the preload's
 * `window.cairn` between the page and the host. These settings are asserted in a unit test.
 */
export function buildWebPreferences(preloadPath: string): WebPreferences {
  return {
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    preload: preloadPath,
  };
}

export interface MainWindowOptions {
  readonly preloadPath: string;
  readonly bounds: InitialBounds;
}

export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const { maximized, ...bounds } = options.bounds;
  const window = new BrowserWindow({
    ...bounds,
    minWidth: MIN_WINDOW_SIZE.width,
    minHeight: MIN_WINDOW_SIZE.height,
    title: 'Cairn',
    // Shown once the first paint is ready, so the person never sees an empty white frame.
    show: false,
    webPreferences: buildWebPreferences(options.preloadPath),
  });
  window.once('ready-to-show', () => {
    if (maximized) window.maximize();
    window.show();
  });
  return window;
}

/** Brings the window to the front (a second launch of Cairn lands here). */
export function focusWindow(window: Pick<BrowserWindow, 'isMinimized' | 'restore' | 'show' | 'focus'>): void {
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}
