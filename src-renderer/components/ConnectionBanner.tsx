import { useAppStore } from '../state/store-context';
import { AlertIcon, Spinner } from './icons';

/** Shown while the line to the host is down (or never came up), saying what is going on. */
export function ConnectionBanner() {
  const status = useAppStore((state) => state.connection.status);
  const problem = useAppStore((state) => state.connection.problem);
  if (status === 'open') return null;
  const failed = status === 'failed';
  return (
    <div className={`connection-banner banner-${status}`} role="status" data-testid="connection-banner">
      {failed ? <AlertIcon /> : <Spinner />}
      <span>
        {failed
          ? (problem ?? 'Cairn cannot be reached.')
          : status === 'connecting'
            ? 'Connecting to Cairn…'
            : 'Cairn’s host is not reachable. This window shows what it last saw; whether work is still running is unknown until Cairn reconnects. Trying again…'}
      </span>
    </div>
  );
}
