import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Paired devices and their credentials, in the data directory's `devices.json` (mode 0600). A
 * credential is shown once, to the device that paired; the host keeps only its SHA-256 (it is 32
 * random bytes, so a hash is enough), compared in constant time.
 */

export const DEVICES_FILE = 'devices.json';
const PREFIX = 'cairn-device';

export interface DeviceRecord {
  readonly deviceId: string;
  readonly name: string;
  readonly firstPairedAt: number;
  readonly lastSeenAt: number | null;
  readonly lastAddress: string | null;
  /** SHA-256 of the credential's secret, hex. */
  readonly secretHash: string;
}

export interface DeviceStore {
  list(): readonly DeviceRecord[];
  /** Adds a device and returns it with its credential (the only time the credential exists outside the device). */
  add(name: string, address: string, now: number): { device: DeviceRecord; credential: string };
  /** The device a credential belongs to, or null (unknown, revoked, malformed). */
  verify(credential: string): DeviceRecord | null;
  /** Records that a device connected. */
  touch(deviceId: string, address: string, now: number): void;
  rename(deviceId: string, name: string): DeviceRecord | null;
  /** Forgets a device: its credential is refused from now on. */
  remove(deviceId: string): boolean;
}

export function openDeviceStore(dataDir: string): DeviceStore {
  const path = join(dataDir, DEVICES_FILE);
  let devices: DeviceRecord[] = read(path);
  const save = () => {
    const temp = `${path}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify({ devices }, null, 2)}\n`, { mode: 0o600 });
    renameSync(temp, path);
  };
  const update = (deviceId: string, change: (device: DeviceRecord) => DeviceRecord): DeviceRecord | null => {
    const index = devices.findIndex((device) => device.deviceId === deviceId);
    const current = devices[index];
    if (current === undefined) return null;
    const next = change(current);
    devices = devices.with(index, next);
    save();
    return next;
  };
  return {
    list: () => devices,
    add(name, address, now) {
      const deviceId = randomBytes(8).toString('hex');
      const secret = randomBytes(32).toString('base64url');
      const device: DeviceRecord = {
        deviceId,
        name,
        firstPairedAt: now,
        lastSeenAt: now,
        lastAddress: address,
        secretHash: hash(secret),
      };
      devices = [...devices, device];
      save();
      return { device, credential: `${PREFIX}.${deviceId}.${secret}` };
    },
    verify(credential) {
      const [prefix, deviceId, secret, ...rest] = credential.split('.');
      if (prefix !== PREFIX || deviceId === undefined || secret === undefined || rest.length > 0) return null;
      const device = devices.find((candidate) => candidate.deviceId === deviceId);
      if (device === undefined) return null;
      const given = Buffer.from(hash(secret), 'hex');
      const kept = Buffer.from(device.secretHash, 'hex');
      return given.length === kept.length && timingSafeEqual(given, kept) ? device : null;
    },
    touch(deviceId, address, now) {
      update(deviceId, (device) => ({ ...device, lastSeenAt: now, lastAddress: address }));
    },
    rename: (deviceId, name) => update(deviceId, (device) => ({ ...device, name })),
    remove(deviceId) {
      const before = devices.length;
      devices = devices.filter((device) => device.deviceId !== deviceId);
      if (devices.length === before) return false;
      save();
      return true;
    },
  };
}

function hash(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

function read(path: string): DeviceRecord[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const parsed = JSON.parse(text) as { devices?: unknown };
  return Array.isArray(parsed.devices)
    ? (parsed.devices as DeviceRecord[]).filter(
        (device) => typeof device.deviceId === 'string' && typeof device.secretHash === 'string',
      )
    : [];
}
