import { lazy, Suspense, useEffect } from 'react';
import { selectRunsOnCodex } from '../../state/selectors';
import { useAppStore, useStoreApi } from '../../state/store-context';
import { retryingImport } from '../../platform/retrying-import';

/** The menu itself loads once a server is found (most people have none). */
const McpMenu = lazy(() => retryingImport(() => import('./McpMenu')).then((module) => ({ default: module.McpMenu })));

/**
 * The composer's MCP menu, shown only where some MCP server is set up, and not in a Codex session
 * (Codex runs its own agent, without Cairn's MCP servers).
 */
export function McpComposerMenu({ sessionId }: { sessionId: string }) {
  const store = useStoreApi();
  const hasServers = useAppStore((state) => (state.mcpServers ?? []).some((server) => server.enabled));
  const codex = useAppStore(selectRunsOnCodex(sessionId));

  useEffect(() => {
    if (store.getState().mcpServers === null) void store.getState().loadMcpServers();
  }, [store]);

  if (!hasServers || codex) return null;
  return (
    <Suspense fallback={null}>
      <McpMenu sessionId={sessionId} />
    </Suspense>
  );
}
