import { isBridge } from '../bridge/ipc-host-link';

/**
 * Whether the renderer runs in the desktop app (the preload exposed `window.cairn`), where the host
 * can open OS dialogs such as the folder picker.
 */
export function inDesktopApp(win: Window | undefined = typeof window === 'undefined' ? undefined : window): boolean {
  return win !== undefined && isBridge((win as unknown as { cairn?: unknown }).cairn);
}
