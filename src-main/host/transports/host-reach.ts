import type { ReachStatus } from '../../../src-shared/device-model';
import type { Host } from '../create-host';
import { storedHostToken } from './host-token';
import { startReachListener, type ReachListener, type ReachListenerOptions } from './reach-listener';

export interface HostReachOptions extends Omit<ReachListenerOptions, 'token'> {
  readonly host: Host;
  /** The desktop's token, also accepted on the listener; by default the one kept in the data directory. */
  readonly token?: string;
  /** The loopback listener's address, where a pairing code points while no listener for devices is open. */
  readonly loopbackOrigin?: string | null;
}

/**
 * Opens the listener other devices reach for a host and hands its control to the host, so Settings →
 * Devices (`device.reach.set`, `device.reach.regenerate`) can open, close and change it. The one way
 * both processes that run a host do it: the headless host (serve.ts) and the desktop app's main
 * process (electron/main.ts). Off unless `--listen` or the kept settings ask for it.
 */
export async function openHostReach(options: HostReachOptions): Promise<ReachListener> {
  const { host, loopbackOrigin, token, ...listener } = options;
  if (loopbackOrigin !== undefined && loopbackOrigin !== null) host.devices.setLoopbackOrigin(loopbackOrigin);
  const reach = await startReachListener({
    ...listener,
    host,
    token: token ?? storedHostToken(options.dataDir, { rotate: false }).token,
  });
  host.devices.attachReach(reach);
  return reach;
}

/** The start-up line about other devices: where they reach this Cairn, or why they cannot; null while it is off. */
export function describeReach(status: ReachStatus): { readonly ok: boolean; readonly text: string } | null {
  if (status.listening && status.certificate !== null)
    return {
      ok: true,
      text: `Other devices: ${status.origin ?? ''} (pair them in Settings → Devices; certificate SHA-256 ${status.certificate.fingerprint})`,
    };
  if (status.problem !== null)
    return { ok: false, text: `other devices cannot reach this Cairn: ${status.problem} It serves on 127.0.0.1 only.` };
  return null;
}
