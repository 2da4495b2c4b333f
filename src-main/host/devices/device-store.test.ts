import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../testing/host-fixture';
import { DEVICES_FILE, openDeviceStore } from './device-store';

const dir = useTempDirs();

describe('the device credential store', () => {
  it('keeps devices across reopening, only a hash of each credential, readable by the owner alone', () => {
    const dataDir = dir();
    const { device, credential } = openDeviceStore(dataDir).add('Pixel 9', '192.0.2.5', 1000);
    const file = readFileSync(join(dataDir, DEVICES_FILE), 'utf8');
    expect(file).not.toContain(credential.split('.')[2]);
    expect(statSync(join(dataDir, DEVICES_FILE)).mode & 0o777).toBe(0o600);
    const reopened = openDeviceStore(dataDir);
    expect(reopened.verify(credential)?.deviceId).toBe(device.deviceId);
    expect(reopened.rename(device.deviceId, 'Phone')?.name).toBe('Phone');
    reopened.touch(device.deviceId, '192.0.2.6', 2000);
    expect(openDeviceStore(dataDir).list()).toEqual([
      expect.objectContaining({ name: 'Phone', firstPairedAt: 1000, lastSeenAt: 2000, lastAddress: '192.0.2.6' }),
    ]);
  });

  it('refuses a wrong, malformed or removed credential', () => {
    const store = openDeviceStore(dir());
    const { device, credential } = store.add('Pixel 9', '192.0.2.5', 1000);
    const [prefix, id, secret] = credential.split('.');
    expect(store.verify(`${prefix}.${id}.${secret?.slice(1) ?? ''}x`)).toBeNull();
    expect(store.verify(`${credential}.more`)).toBeNull();
    expect(store.verify('not a credential')).toBeNull();
    expect(store.remove(device.deviceId)).toBe(true);
    expect(store.verify(credential)).toBeNull();
  });
});
