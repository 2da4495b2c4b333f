import type { ChangeEvent } from '../../../src-shared/events';
import type { McpServerRecord } from '../../../src-shared/mcp-model';

/** The MCP servers this window knows (null: not read yet), in the order the host lists them. */
export type McpServerList = readonly McpServerRecord[] | null;

/** Keeps one server's record: replaces it in place, or adds it at the end. */
export function upsertMcpServer(servers: McpServerList, server: McpServerRecord): McpServerList {
  if (servers === null) return null;
  const index = servers.findIndex((known) => known.serverId === server.serverId);
  if (index === -1) return [...servers, server];
  const current = servers[index];
  // A record older than the one held (a late event after a save) is not applied over it.
  if (current !== undefined && current.revision > server.revision) return servers;
  return servers.map((known, at) => (at === index ? server : known));
}

/** Applies the MCP events of a batch; the same list back when none concerns it. */
export function applyMcpEvents(servers: McpServerList, batch: readonly ChangeEvent[]): McpServerList {
  let next = servers;
  for (const event of batch) {
    if (event.kind === 'mcp.server.changed') next = upsertMcpServer(next, event.server);
    else if (event.kind === 'mcp.server.removed' && next !== null)
      next = next.filter((server) => server.serverId !== event.serverId);
  }
  return next;
}
