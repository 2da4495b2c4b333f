import { lazy, Suspense, useEffect } from 'react';
import { retryingImport } from '../../platform/retrying-import';
import { useAppStore, useStoreApi } from '../../state/store-context';

/** The list itself loads with the first grant or allowed host. */
const GrantRows = lazy(() =>
  retryingImport(() => import('./GrantRows')).then((module) => ({ default: module.GrantRows })),
);

/**
 * The session's "Allow for this session" grants: which tools run without asking (in Ask), what was
 * first allowed, and Revoke (the tool's next call asks again); and the network hosts its sandboxed
 * commands may reach, each with Remove (any mode). Shown only while there is one.
 */
export function GrantsList({ sessionId, toolGrants }: { sessionId: string; toolGrants: boolean }) {
  const store = useStoreApi();
  const hasGrants = useAppStore((state) => toolGrants && (state.grants[sessionId]?.length ?? 0) > 0);
  const hasHosts = useAppStore((state) => (state.sessionHosts[sessionId]?.length ?? 0) > 0);
  const generation = useAppStore((state) => state.connection.generation);

  useEffect(() => {
    void store.getState().loadGrants(sessionId);
  }, [sessionId, store, generation]);

  if (!hasGrants && !hasHosts) return null;
  return (
    <Suspense fallback={null}>
      <GrantRows sessionId={sessionId} toolGrants={toolGrants} />
    </Suspense>
  );
}
