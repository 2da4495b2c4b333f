import { randomBytes } from 'node:crypto';
import type {
  DeviceIdentity,
  DeviceSummary,
  HostName,
  PairingOffer,
  PairingRequest,
  ReachStatus,
} from '../../../src-shared/device-model';
import type { DeviceListResult } from '../../../src-shared/operations';
import type { Logger } from '../../runtime/ports/ports';
import { openDeviceStore, type DeviceRecord } from './device-store';
import { readHostName, saveHostName } from './host-name';
import { createPairingCodes } from './pairing-codes';

/** The listener other devices reach, as the process that opened it controls it (serve.ts, Electron main). */
export interface ReachControl {
  status(): ReachStatus;
  /** Opens it on `address` (or closes it); a problem is in the status, the host stays on loopback. */
  set(settings: { enabled: boolean; address?: string; certFile?: string; keyFile?: string }): Promise<ReachStatus>;
  /** A new certificate of Cairn's own; no device is signed out. */
  regenerate(): Promise<ReachStatus>;
}

export type PairingOutcome =
  | { readonly ok: true; readonly credential: string; readonly device: DeviceIdentity }
  | { readonly ok: false; readonly reason: 'wrong_code' | 'expired' | 'declined' | 'busy' };

export interface DeviceRegistry {
  list(): DeviceListResult;
  startPairing(): Promise<PairingOffer>;
  cancelPairing(): boolean;
  /** A device proved a code: resolves once the desktop confirms or declines (or the code was wrong). */
  requestPairing(
    code: string,
    deviceName: string,
    address: string,
  ): { outcome: Promise<PairingOutcome>; withdraw: () => void };
  confirmPairing(requestId: string, accept: boolean): { found: boolean; device: DeviceSummary | null };
  /** The device a credential belongs to (and records that it was seen), or null. */
  admit(credential: string, address: string): DeviceIdentity | null;
  /** A live socket of a device; `close` is called when the device is revoked. Returns the release. */
  track(deviceId: string, close: () => void): () => void;
  rename(deviceId: string, name: string): DeviceSummary | null;
  revoke(deviceId: string): boolean;
  /** Where a device opens the pairing page when no other listener is open. */
  setLoopbackOrigin(origin: string): void;
  attachReach(control: ReachControl): void;
  readonly reach: ReachControl | null;
  /** The name windows show for this Cairn. */
  hostName(): HostName;
  setHostName(name: string): HostName;
}

const NO_REACH: ReachStatus = {
  listening: false,
  origin: null,
  address: null,
  source: null,
  certificate: null,
  problem: null,
  addresses: [],
  available: false,
};

export function createDeviceRegistry(options: {
  dataDir: string;
  now: () => number;
  publish: () => void;
  logger: Logger;
}): DeviceRegistry {
  const store = openDeviceStore(options.dataDir);
  const codes = createPairingCodes({ now: options.now });
  const sockets = new Map<string, Set<() => void>>();
  let pending: (PairingRequest & { resolve: (outcome: PairingOutcome) => void }) | null = null;
  let loopbackOrigin: string | null = null;
  let reach: ReachControl | null = null;
  let hostName = readHostName(options.dataDir);

  const summary = (device: DeviceRecord): DeviceSummary => ({
    deviceId: device.deviceId,
    name: device.name,
    firstPairedAt: device.firstPairedAt,
    lastSeenAt: device.lastSeenAt,
    lastAddress: device.lastAddress,
    connected: sockets.get(device.deviceId)?.size ?? 0,
  });
  const settle = (outcome: PairingOutcome) => {
    const request = pending;
    pending = null;
    request?.resolve(outcome);
    options.publish();
  };

  return {
    list() {
      const active = codes.active();
      return {
        devices: store.list().map(summary),
        pairing:
          active === null && pending === null
            ? null
            : {
                code: active?.code ?? '',
                expiresAt: active?.expiresAt ?? 0,
                request:
                  pending === null
                    ? null
                    : { requestId: pending.requestId, deviceName: pending.deviceName, address: pending.address },
              },
        reach: reach?.status() ?? NO_REACH,
        hostName,
      };
    },
    async startPairing() {
      if (pending !== null) settle({ ok: false, reason: 'declined' });
      const { code, expiresAt } = codes.issue();
      const status = reach?.status();
      const origin = status?.listening === true && status.origin !== null ? status.origin : (loopbackOrigin ?? '/');
      const url = `${origin}#pair=${code}`;
      // The QR library loads when a code is first shown, not at every start.
      const { default: QRCode } = await import('qrcode');
      const qrSvg = await QRCode.toString(url, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
      options.publish();
      return { code, expiresAt, url, qrSvg };
    },
    cancelPairing() {
      const had = codes.cancel() || pending !== null;
      if (pending !== null) settle({ ok: false, reason: 'declined' });
      else options.publish();
      return had;
    },
    requestPairing(code, deviceName, address) {
      if (pending !== null) return { outcome: Promise.resolve({ ok: false, reason: 'busy' }), withdraw: () => {} };
      const check = codes.check(code);
      if (check !== 'ok') {
        options.publish();
        return {
          outcome: Promise.resolve({ ok: false, reason: check === 'wrong' ? 'wrong_code' : 'expired' }),
          withdraw: () => {},
        };
      }
      const requestId = randomBytes(8).toString('hex');
      const outcome = new Promise<PairingOutcome>((resolve) => {
        pending = { requestId, deviceName, address, resolve };
      });
      options.publish();
      return {
        outcome,
        withdraw: () => {
          if (pending?.requestId === requestId) settle({ ok: false, reason: 'declined' });
        },
      };
    },
    confirmPairing(requestId, accept) {
      if (pending === null || pending.requestId !== requestId) return { found: false, device: null };
      if (!accept) {
        settle({ ok: false, reason: 'declined' });
        return { found: true, device: null };
      }
      const { device, credential } = store.add(pending.deviceName, pending.address, options.now());
      options.logger.info('Paired a device', { deviceId: device.deviceId, name: device.name });
      settle({ ok: true, credential, device: { deviceId: device.deviceId, name: device.name } });
      return { found: true, device: summary(device) };
    },
    admit(credential, address) {
      const device = store.verify(credential);
      if (device === null) return null;
      store.touch(device.deviceId, address, options.now());
      return { deviceId: device.deviceId, name: device.name };
    },
    track(deviceId, close) {
      const live = sockets.get(deviceId) ?? new Set();
      live.add(close);
      sockets.set(deviceId, live);
      options.publish();
      return () => {
        live.delete(close);
        if (live.size === 0) sockets.delete(deviceId);
        options.publish();
      };
    },
    rename(deviceId, name) {
      const device = store.rename(deviceId, name);
      if (device !== null) options.publish();
      return device === null ? null : summary(device);
    },
    revoke(deviceId) {
      if (!store.remove(deviceId)) return false;
      options.logger.info('Revoked a device', { deviceId });
      for (const close of [...(sockets.get(deviceId) ?? [])]) close();
      options.publish();
      return true;
    },
    setLoopbackOrigin(origin) {
      loopbackOrigin = origin;
    },
    attachReach(control) {
      reach = control;
    },
    get reach() {
      return reach;
    },
    hostName: () => hostName,
    setHostName(name) {
      hostName = saveHostName(options.dataDir, name);
      options.publish();
      return hostName;
    },
  };
}
