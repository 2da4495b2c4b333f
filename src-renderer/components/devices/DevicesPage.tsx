import { useCallback, useEffect, useState } from 'react';
import '../../styles/devices.css';
import type { Outcome } from '../../../src-shared/errors';
import type { DeviceListResult } from '../../../src-shared/operations/device-operations';
import { connectedAsDevice } from '../../platform/device-page';
import { useAppStore } from '../../state/store-context';
import { Spinner } from '../icons';
import { DeviceList } from './DeviceList';
import { HostNameSection } from './HostNameSection';
import { PairingSection } from './PairingSection';
import { ReachSection } from './ReachSection';

/**
 * Settings → Devices (docs/remote.md): the listener other devices reach, pairing a device, and the
 * paired devices. On a paired device's own page it only says these are managed on the desktop.
 */
export function DevicesPage() {
  if (connectedAsDevice(window)) {
    return (
      <div className="devices-page" data-testid="devices-settings">
        <p className="settings-note" data-testid="devices-managed-on-desktop">
          This device is paired with the Cairn on your desktop. Pairing, the list of devices and how others reach Cairn
          are managed there.
        </p>
      </div>
    );
  }
  return <DesktopDevicesPage />;
}

function DesktopDevicesPage() {
  const link = useAppStore((state) => state.hostLink);
  const [list, setList] = useState<DeviceListResult | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const reload = useCallback(async () => {
    const outcome = await link.invoke('device.list', {});
    if (outcome.ok) {
      setList(outcome.result);
      setProblem(null);
    } else setProblem(outcome.error.message);
  }, [link]);
  useEffect(() => {
    void reload();
    return link.subscribe((event) => {
      if (event.kind === 'devices.changed') void reload();
    });
  }, [link, reload]);

  /** Runs one device operation; its refusal is shown above the page, and the list is read again. */
  const run = useCallback(
    async <T,>(call: () => Promise<Outcome<T>>): Promise<T | null> => {
      const outcome = await call();
      if (!outcome.ok) setProblem(outcome.error.message);
      await reload();
      return outcome.ok ? outcome.result : null;
    },
    [reload],
  );

  if (list === null) {
    return problem === null ? (
      <div className="settings-loading">
        <Spinner label="Loading devices" />
      </div>
    ) : (
      <p className="form-notice tone-error">{problem}</p>
    );
  }
  return (
    <div className="devices-page" data-testid="devices-settings">
      {problem === null ? null : (
        <p className="form-notice tone-error" role="alert">
          {problem}
        </p>
      )}
      <ReachSection reach={list.reach} run={run} />
      <HostNameSection hostName={list.hostName} run={run} />
      <PairingSection pairing={list.pairing} listening={list.reach.listening} run={run} />
      <DeviceList devices={list.devices} run={run} />
    </div>
  );
}

/** What the sections call to change something on the host (see DesktopDevicesPage's run). */
export type RunDeviceCall = <T>(call: () => Promise<Outcome<T>>) => Promise<T | null>;
