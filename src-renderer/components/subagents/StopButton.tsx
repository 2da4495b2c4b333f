import { stopLabel } from '../../format/agent-status';
import { selectLiveDescendantCount } from '../../state/agent-selectors';
import { useAppStore, useStoreApi } from '../../state/store-context';
import { StopIcon } from '../icons';

/**
 * The composer's Stop: stops the session's running turn and, with it, every child agent still
 * working, and says how many ("Stop — also stops 2 child agents"). On a root whose own turn has
 * ended while children still work, it stops the tree. Not offered while the host is unreachable.
 */
export function StopButton({
  sessionId,
  busy,
  unreachable,
}: {
  sessionId: string;
  busy: boolean;
  unreachable: boolean;
}) {
  const store = useStoreApi();
  const liveChildren = useAppStore(selectLiveDescendantCount(sessionId));
  const isRoot = useAppStore((state) => state.agents.links[sessionId] === undefined);
  const treeOnly = !busy && isRoot && liveChildren > 0;
  if (unreachable || (!busy && !treeOnly)) return null;
  const label = stopLabel(liveChildren);
  return (
    <button
      type="button"
      className={`button button-stop${liveChildren > 0 ? ' has-children' : ''}`}
      aria-label={label}
      // Esc stops a running turn; a tree whose root has no running turn is stopped from here only.
      title={treeOnly ? label : `${label} (Esc)`}
      data-testid="stop-button"
      onClick={() => void (treeOnly ? store.getState().stopAgentTree(sessionId) : store.getState().stopTurn(sessionId))}
    >
      <StopIcon />
      <span aria-hidden="true">{label}</span>
    </button>
  );
}
