import type { WebContents } from 'electron';
import { isAppUrl } from '../host/transports/ipc-transport';

/**
 * The window only ever shows the app. Navigating elsewhere is blocked, new windows are never
 * opened, and a link to an ordinary web page opens in the person's browser instead.
 */

const MAX_EXTERNAL_URL_LENGTH = 2048;

/**
 * The URL to hand to the OS browser, or null: only http(s), no embedded credentials, no control
 * characters or whitespace, and not absurdly long. Everything else (file:, javascript:, custom
 * schemes that launch other programs) is refused.
 */
export function externalUrl(text: string): string | null {
  if (text.length === 0 || text.length > MAX_EXTERNAL_URL_LENGTH) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f]/.test(text)) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username !== '' || url.password !== '' || url.hostname === '') return null;
  return url.href;
}

export interface GuardOptions {
  readonly appUrl: string;
  readonly openExternal: (url: string) => Promise<void>;
  readonly onBlocked?: (what: string, url: string) => void;
}

type GuardedContents = Pick<WebContents, 'on' | 'setWindowOpenHandler'>;

/** Installs the guards on a webContents (done for every one created, via `web-contents-created`). */
export function guardNavigation(contents: GuardedContents, options: GuardOptions): void {
  const sendOut = (url: string) => {
    const safe = externalUrl(url);
    if (safe !== null) void options.openExternal(safe).catch(() => options.onBlocked?.('open-external-failed', safe));
    return safe !== null;
  };
  const block = (what: string) => (event: { preventDefault(): void }, url: string) => {
    if (isAppUrl(url, options.appUrl)) return;
    event.preventDefault();
    if (!sendOut(url)) options.onBlocked?.(what, url);
  };
  contents.on('will-navigate', block('navigation'));
  contents.on('will-redirect', block('redirect'));
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
    options.onBlocked?.('webview', '');
  });
  contents.setWindowOpenHandler(({ url }) => {
    if (!sendOut(url)) options.onBlocked?.('new-window', url);
    return { action: 'deny' };
  });
}
