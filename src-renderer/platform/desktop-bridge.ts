import type { Bridge } from '../../src-shared/bridge';
import { isBridge } from '../bridge/ipc-host-link';

/**
 * The preload's bridge (`window.cairn`) when the renderer runs in the desktop app, else null. The one
 * place the renderer looks for it: choosing the host link and asking "desktop app or browser tab?"
 * both come here.
 */
export function desktopBridge(
  win: Window | undefined = typeof window === 'undefined' ? undefined : window,
): Bridge | null {
  if (win === undefined) return null;
  const exposed: unknown = (win as unknown as { cairn?: unknown }).cairn;
  return isBridge(exposed) ? exposed : null;
}

/** Whether the renderer runs in the desktop app, where the host can open OS dialogs such as the folder picker. */
export function inDesktopApp(win: Window | undefined = typeof window === 'undefined' ? undefined : window): boolean {
  return desktopBridge(win) !== null;
}
