import { useState } from 'react';
import type { HostName } from '../../../src-shared/device-model';
import { useAppStore } from '../../state/store-context';
import type { RunDeviceCall } from './DevicesPage';

/** "This Cairn's name": what a phone or another computer shows for it ("on workstation"); empty is the machine's own. */
export function HostNameSection({ hostName, run }: { hostName: HostName; run: RunDeviceCall }) {
  const link = useAppStore((state) => state.hostLink);
  const [name, setName] = useState(hostName.custom ? hostName.name : '');
  const unchanged = name.trim() === (hostName.custom ? hostName.name : '');
  return (
    <section className="settings-section" aria-labelledby="devices-host-name">
      <h4 id="devices-host-name">This Cairn’s name</h4>
      <form
        className="devices-rename"
        onSubmit={(event) => {
          event.preventDefault();
          void run(() => link.invoke('device.hostName.set', { name }));
        }}
      >
        <input
          aria-labelledby="devices-host-name"
          value={name}
          placeholder={hostName.machineName}
          maxLength={60}
          onChange={(event) => setName(event.target.value)}
          data-testid="host-name-input"
        />
        <button type="submit" className="button button-small" disabled={unchanged}>
          Save
        </button>
      </form>
      <p className="settings-note">
        Paired devices show it (“on {hostName.name}”), so you know which Cairn a window shows. Leave it empty for this
        machine’s name.
      </p>
    </section>
  );
}
