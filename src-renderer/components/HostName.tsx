import { useEffect, useState } from 'react';
import { useAppStore } from '../state/store-context';

/**
 * The name of the Cairn this window shows ("on workstation"), read from the host and again when
 * Settings → Devices renames it: a chip beside the sidebar's name, or a line in the welcome.
 */
export function HostName({ variant }: { variant: 'chip' | 'line' }) {
  const link = useAppStore((state) => state.hostLink);
  const [name, setName] = useState<string | null>(null);
  useEffect(() => {
    const load = () =>
      void link.invoke('host.info', {}).then((outcome) => {
        if (outcome.ok) setName(outcome.result.hostName);
      });
    load();
    return link.subscribe((event) => {
      if (event.kind === 'devices.changed') load();
    });
  }, [link]);
  if (name === null) return null;
  return variant === 'chip' ? (
    <span className="host-chip" data-testid="host-chip" title={`This window shows the Cairn running on ${name}`}>
      on {name}
    </span>
  ) : (
    <p className="welcome-host" data-testid="welcome-host">
      This is the Cairn on <strong>{name}</strong>.
    </p>
  );
}
