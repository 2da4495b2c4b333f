import { useEffect } from 'react';
import { useAppStore, useStoreApi } from '../state/store-context';

/** Whether any MCP server is enabled, so the / menu asks for prompts (loading the list once when unknown). */
export function useMcpServersEnabled(open: boolean): boolean {
  const store = useStoreApi();
  const servers = useAppStore((state) => state.mcpServers);
  useEffect(() => {
    if (open && servers === null) void store.getState().loadMcpServers();
  }, [open, servers, store]);
  return (servers ?? []).some((server) => server.enabled);
}
