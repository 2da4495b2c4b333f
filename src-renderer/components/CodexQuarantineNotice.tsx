import { useState } from 'react';
import { useAppStore, useStoreApi } from '../state/store-context';
import { AlertIcon, StopIcon } from './icons';

/**
 * Under the header while a Codex session is quarantined: its old app-server could not be confirmed
 * stopped, so no new turn starts on the thread until Force stop confirms it gone.
 */
export function CodexQuarantineNotice({ sessionId }: { sessionId: string }) {
  const store = useStoreApi();
  const quarantine = useAppStore((state) => state.codexQuarantines[sessionId]);
  const [stopping, setStopping] = useState(false);
  if (quarantine === undefined) return null;
  const forceStop = () => {
    setStopping(true);
    void store
      .getState()
      .forceStopCodex(sessionId)
      .finally(() => setStopping(false));
  };
  return (
    <div className="session-notice" role="alert" data-testid="codex-quarantined">
      <AlertIcon />
      <p>
        <strong>Quarantined: Codex did not stop.</strong> Its process
        {quarantine.pid === null ? '' : ` (pid ${quarantine.pid})`} could not be confirmed stopped, so no new turn
        starts on this thread until it is. Force stop kills it again.
      </p>
      <button type="button" className="button button-small" onClick={forceStop} disabled={stopping}>
        <StopIcon />
        {stopping ? 'Stopping…' : 'Force stop'}
      </button>
    </div>
  );
}
