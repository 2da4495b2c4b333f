import { useState } from 'react';
import type { DeviceSummary } from '../../../src-shared/device-model';
import { useAppStore } from '../../state/store-context';
import type { RunDeviceCall } from './DevicesPage';

/** The paired devices: name, first paired, last seen and from where, with Rename and Revoke (which asks first). */
export function DeviceList({ devices, run }: { devices: readonly DeviceSummary[]; run: RunDeviceCall }) {
  return (
    <section className="settings-section" aria-labelledby="devices-list">
      <h4 id="devices-list">Paired devices</h4>
      {devices.length === 0 ? (
        <p className="settings-note">None yet.</p>
      ) : (
        <ul className="devices-list" data-testid="device-list">
          {devices.map((device) => (
            <DeviceRow key={device.deviceId} device={device} run={run} />
          ))}
        </ul>
      )}
    </section>
  );
}

function DeviceRow({ device, run }: { device: DeviceSummary; run: RunDeviceCall }) {
  const link = useAppStore((state) => state.hostLink);
  const [mode, setMode] = useState<'show' | 'rename' | 'revoke'>('show');
  const [name, setName] = useState(device.name);
  const rename = () =>
    void run(() => link.invoke('device.rename', { deviceId: device.deviceId, name })).then((renamed) => {
      if (renamed !== null) setMode('show');
    });
  return (
    <li className="devices-row" data-testid="device-row">
      {mode === 'rename' ? (
        <form
          className="devices-rename"
          onSubmit={(event) => {
            event.preventDefault();
            rename();
          }}
        >
          <input
            aria-label="Device name"
            value={name}
            maxLength={60}
            onChange={(event) => setName(event.target.value)}
            autoFocus
          />
          <button type="submit" className="button button-small button-primary" disabled={name.trim() === ''}>
            Save
          </button>
          <button type="button" className="button button-small" onClick={() => setMode('show')}>
            Cancel
          </button>
        </form>
      ) : (
        <p className="devices-name">
          {device.name}
          {device.connected > 0 ? <span className="devices-connected"> · connected</span> : null}
        </p>
      )}
      <p className="settings-note">
        Paired {formatWhen(device.firstPairedAt)} · last seen{' '}
        {device.lastSeenAt === null ? 'never' : formatWhen(device.lastSeenAt)}
        {device.lastAddress === null ? '' : ` from ${device.lastAddress}`}
      </p>
      {mode === 'revoke' ? (
        <div className="devices-actions" role="alert">
          <span>Revoke {device.name}? Its open pages are signed out at once and it must be paired again.</span>
          <button
            type="button"
            className="button button-small button-danger"
            onClick={() => void run(() => link.invoke('device.revoke', { deviceId: device.deviceId }))}
          >
            Revoke
          </button>
          <button type="button" className="button button-small" onClick={() => setMode('show')}>
            Keep
          </button>
        </div>
      ) : mode === 'show' ? (
        <div className="devices-actions">
          <button type="button" className="button button-small" onClick={() => setMode('rename')}>
            Rename
          </button>
          <button
            type="button"
            className="button button-small button-danger"
            onClick={() => setMode('revoke')}
            aria-label={`Revoke ${device.name}`}
          >
            Revoke…
          </button>
        </div>
      ) : null}
    </li>
  );
}

function formatWhen(at: number): string {
  return new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
