/**
 * The headless host's access token arrives in the URL fragment (`#token=…`, never sent to a server).
 * It is kept in sessionStorage so a reload still connects, and removed from the visible address so it
 * does not end up in screenshots or bookmarks. It is never logged.
 */

export const TOKEN_STORAGE_KEY = 'cairn.hostToken';

export interface TokenEnvironment {
  readonly location: { readonly hash: string; readonly pathname: string; readonly search: string };
  readonly history: { replaceState(data: unknown, unused: string, url?: string): void };
  readonly storage: { getItem(key: string): string | null; setItem(key: string, value: string): void };
}

/** Takes the token out of the fragment (keeping any other fragment keys), or reads the stored one. */
export function takeHostToken(env: TokenEnvironment): string | null {
  const params = new URLSearchParams(env.location.hash.replace(/^#/, ''));
  const fromFragment = params.get('token');
  if (fromFragment !== null && fromFragment !== '') {
    try {
      env.storage.setItem(TOKEN_STORAGE_KEY, fromFragment);
    } catch {
      // Storage can be unavailable (private modes); the token still works for this page's life.
    }
    params.delete('token');
    const rest = params.toString();
    env.history.replaceState(
      null,
      '',
      `${env.location.pathname}${env.location.search}${rest === '' ? '' : `#${rest}`}`,
    );
    return fromFragment;
  }
  try {
    const stored = env.storage.getItem(TOKEN_STORAGE_KEY);
    return stored === null || stored === '' ? null : stored;
  } catch {
    return null;
  }
}

/**
 * A new address with a token pasted into the same tab changes only the fragment, which does not
 * reload the page; reload it so the new token is taken and used from the start.
 */
export function reloadOnNewToken(win: Window): void {
  win.addEventListener('hashchange', () => {
    if (new URLSearchParams(win.location.hash.replace(/^#/, '')).has('token')) win.location.reload();
  });
}

/** Where a paired device keeps its credential (docs/remote.md): localStorage, so it survives closing the browser. */
export const DEVICE_CREDENTIAL_KEY = 'cairn.deviceCredential';

/** The credential this browser received when it was paired, or null. */
export function storedDeviceCredential(storage: { getItem(key: string): string | null }): string | null {
  try {
    const stored = storage.getItem(DEVICE_CREDENTIAL_KEY);
    return stored === null || stored === '' ? null : stored;
  } catch {
    return null;
  }
}

/** Keeps the credential the host gave this browser when it was paired; false when storage refuses it. */
export function keepDeviceCredential(
  storage: { setItem(key: string, value: string): void },
  credential: string,
): boolean {
  try {
    storage.setItem(DEVICE_CREDENTIAL_KEY, credential);
    return true;
  } catch {
    return false;
  }
}

/** Forgets the credential of a device the host no longer accepts (revoked), and notes it for the pairing page. */
export function forgetDeviceCredential(
  local: { removeItem(key: string): void },
  session: { setItem(key: string, value: string): void },
): void {
  try {
    local.removeItem(DEVICE_CREDENTIAL_KEY);
    session.setItem(SIGNED_OUT_KEY, '1');
  } catch {
    // Storage refused: the host refuses the credential anyway, and the page says so.
  }
}

const SIGNED_OUT_KEY = 'cairn.deviceSignedOut';

/** Whether this tab's device was just signed out (read once: the note is then gone). */
export function takeSignedOutNote(session: {
  getItem(key: string): string | null;
  removeItem(key: string): void;
}): boolean {
  try {
    const signedOut = session.getItem(SIGNED_OUT_KEY) !== null;
    session.removeItem(SIGNED_OUT_KEY);
    return signedOut;
  } catch {
    return false;
  }
}
