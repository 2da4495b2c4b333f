import { useEffect } from 'react';
import { useAppStore, useStoreApi } from '../state/store-context';

/** At the top of a branch: where it came from, with a link back. */
export function BranchOriginBar({ sessionId }: { sessionId: string }) {
  const store = useStoreApi();
  const origin = useAppStore((state) => state.branchLinks[sessionId]?.branchedFrom ?? null);
  useEffect(() => {
    void store.getState().loadBranches(sessionId);
  }, [sessionId, store]);
  if (origin === null) return null;
  const lead =
    origin.mode === 'rewind'
      ? 'Rewound to before a message of'
      : `Branched at ${origin.mode === 'edit' ? 'an edited message' : 'a regenerated answer'} from`;
  return (
    <div className="branch-origin" data-testid="branch-origin">
      {origin.sourceTitle === null ? (
        <span>{lead} a session that was deleted since.</span>
      ) : (
        <span>
          {lead}{' '}
          <button
            type="button"
            className="text-button branch-link"
            onClick={() => store.getState().selectSession(origin.sourceSessionId)}
          >
            {origin.sourceTitle}
          </button>
        </span>
      )}
      {origin.state === 'copying' ? <span className="tag">Copying…</span> : null}
    </div>
  );
}
