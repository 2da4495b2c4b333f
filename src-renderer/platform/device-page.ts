import { desktopBridge } from './desktop-bridge';
import { storedDeviceCredential, TOKEN_STORAGE_KEY } from './token-storage';

/**
 * Whether this page speaks for a paired device (docs/remote.md): a browser page that connects with
 * the credential it was given when paired, not the desktop's token. Such a page hides what only the
 * desktop may do; the host refuses it anyway (`device_forbidden`).
 */
export function connectedAsDevice(win: Window): boolean {
  if (desktopBridge(win) !== null) return false;
  try {
    const token = win.sessionStorage.getItem(TOKEN_STORAGE_KEY);
    if (token !== null && token !== '') return false;
    return storedDeviceCredential(win.localStorage) !== null;
  } catch {
    return false;
  }
}

/** `connectedAsDevice` for this page; false where there is no window (rendering in tests). */
export function onDevicePage(): boolean {
  return typeof window !== 'undefined' && connectedAsDevice(window);
}

/**
 * Whether this page shows a Cairn on another machine: it came through the listener other devices
 * reach (HTTPS only; loopback is plain HTTP), or it speaks for a paired device (an SSH tunnel's
 * loopback address, say). The desktop app's window and a loopback tab are on the host's own machine.
 */
export function remotePage(): boolean {
  return typeof window !== 'undefined' && (window.location.protocol === 'https:' || connectedAsDevice(window));
}
