import { lazy, Suspense, useEffect } from 'react';
import { retryingImport } from '../../platform/retrying-import';
import { useAppStore, useStoreApi } from '../../state/store-context';

/** The list itself loads with the first grant. */
const GrantRows = lazy(() => retryingImport(() => import('./GrantRows')).then((module) => ({ default: module.GrantRows })));

/**
 * The session's "Allow for this session" grants: which tools run without asking, what was first
 * allowed, and Revoke (the tool's next call asks again). Shown only while there is one.
 */
export function GrantsList({ sessionId }: { sessionId: string }) {
  const store = useStoreApi();
  const hasGrants = useAppStore((state) => (state.grants[sessionId]?.length ?? 0) > 0);
  const generation = useAppStore((state) => state.connection.generation);

  useEffect(() => {
    void store.getState().loadGrants(sessionId);
  }, [sessionId, store, generation]);

  if (!hasGrants) return null;
  return (
    <Suspense fallback={null}>
      <GrantRows sessionId={sessionId} />
    </Suspense>
  );
}
