import { fail } from '../../src-shared/errors';
import { desktopBridge } from '../platform/desktop-bridge';
import { forgetDeviceCredential, storedDeviceCredential, takeHostToken } from '../platform/token-storage';
import type { ConnectionState, HostLink } from './host-link';
import { ipcHostLink } from './ipc-host-link';
import { browserSocketFactory, WebSocketHostLink } from './websocket-host-link';

/**
 * Electron's preload exposes `window.cairn`; in a browser the renderer talks to the headless host
 * that served it, over a WebSocket on the same address, with the token from the page's fragment (or
 * a paired device's own credential). Null: a browser page with neither, which offers to pair this
 * device (components/pairing/PairingPage.tsx).
 */
export function selectHostLink(win: Window): HostLink | null {
  const bridge = desktopBridge(win);
  if (bridge !== null) return ipcHostLink(bridge);
  // The desktop's token from the address, or else the credential a paired device keeps.
  const hostToken = takeHostToken({ location: win.location, history: win.history, storage: win.sessionStorage });
  const credential = hostToken === null ? storedDeviceCredential(win.localStorage) : null;
  const token = hostToken ?? credential;
  if (token === null) return null;
  const scheme = win.location.protocol === 'https:' ? 'wss' : 'ws';
  return new WebSocketHostLink({
    url: `${scheme}://${win.location.host}/`,
    token,
    openSocket: browserSocketFactory(),
    // A device the host no longer accepts (revoked) forgets its credential and opens the pairing page, saying why.
    ...(credential === null
      ? {}
      : {
          onCredentialRefused: () => {
            forgetDeviceCredential(win.localStorage, win.sessionStorage);
            win.location.reload();
          },
        }),
  });
}

/** A link that cannot reach any host; every request fails with `problem`, which the banner shows. */
export function unavailableHostLink(problem: string): HostLink {
  const state: ConnectionState = { status: 'failed', hostEpoch: null, generation: 0, problem };
  return {
    invoke: () => Promise.resolve(fail('operation_unavailable', problem)),
    subscribe: () => () => {},
    connection: () => state,
    onConnectionChange: () => () => {},
    close: () => {},
  };
}
