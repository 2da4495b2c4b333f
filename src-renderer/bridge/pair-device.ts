import { CLOSE_CODES } from '../../src-shared/protocol';
import type { SocketFactory } from './websocket-host-link';

export type PairingResult =
  | { readonly ok: true; readonly credential: string; readonly deviceName: string }
  | { readonly ok: false; readonly message: string }
  | { readonly ok: false; readonly cancelled: true };

const LOST = 'The connection to Cairn dropped before the desktop answered. Check that Cairn is running and try again.';

/**
 * Proves a pairing code to the host (docs/remote.md): instead of a hello the socket says
 * `{"pair":{code, deviceName}}` and waits — as long as the desktop takes to say "Pair <name>?" —
 * for this device's own credential, or a close (4006) whose reason says why not. Aborting `signal`
 * (the page's Cancel) closes the socket, which withdraws the request the desktop was asked about.
 */
export function pairDevice(options: {
  readonly url: string;
  readonly code: string;
  readonly deviceName: string;
  readonly openSocket: SocketFactory;
  readonly signal?: AbortSignal;
}): Promise<PairingResult> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (result: PairingResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const socket = options.openSocket(options.url, {
      open: () => socket.send(JSON.stringify({ pair: { code: options.code, deviceName: options.deviceName } })),
      message: (text) => {
        const paired = pairedFrame(text);
        if (paired !== null) settle({ ok: true, ...paired });
      },
      close: (code, reason) =>
        settle({ ok: false, message: code === CLOSE_CODES.pairingRefused && reason !== '' ? reason : LOST }),
    });
    options.signal?.addEventListener('abort', () => {
      socket.close(1000, 'Cancelled');
      settle({ ok: false, cancelled: true });
    });
  });
}

function pairedFrame(text: string): { credential: string; deviceName: string } | null {
  try {
    const frame = JSON.parse(text) as { paired?: { credential?: unknown; device?: { name?: unknown } } };
    const credential = frame.paired?.credential;
    const name = frame.paired?.device?.name;
    return typeof credential === 'string' && credential !== ''
      ? { credential, deviceName: typeof name === 'string' ? name : '' }
      : null;
  } catch {
    return null;
  }
}

/** The code a QR code's address carries (`#pair=K7QM-3XRP`), or ''. */
export function pairingCodeFromFragment(hash: string): string {
  return new URLSearchParams(hash.replace(/^#/, '')).get('pair')?.trim() ?? '';
}

/** A name to offer for this device from its browser's user agent: "Pixel 9", "iPhone", "Mac"; the person can change it. */
export function defaultDeviceName(userAgent: string): string {
  const android = /Android[^;)]*;\s*(?:[a-z]{2}[-_][A-Z]{2};\s*)?([^;)]+?)(?:\s+Build\/[^;)]*)?\)/.exec(userAgent);
  const model = android?.[1]?.trim();
  if (model !== undefined && model !== '' && model !== 'K') return model.slice(0, 60);
  if (/iPhone/.test(userAgent)) return 'iPhone';
  if (/iPad/.test(userAgent)) return 'iPad';
  if (/Android/.test(userAgent)) return 'Android phone';
  if (/Macintosh|Mac OS X/.test(userAgent)) return 'Mac';
  if (/Windows/.test(userAgent)) return 'Windows PC';
  if (/CrOS/.test(userAgent)) return 'Chromebook';
  if (/Linux/.test(userAgent)) return 'Linux computer';
  return 'My device';
}
