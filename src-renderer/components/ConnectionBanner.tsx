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
            : 'Reconnecting to Cairn… Your work continues on the host; this window catches up when it is back.'}
      </span>
    </div>
  );
}
