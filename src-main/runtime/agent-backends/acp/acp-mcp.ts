import type { McpCapabilities, McpServer } from '@agentclientprotocol/sdk';
import type { McpLaunch } from '../../mcp/mcp-client';

/**
 * The session's MCP servers as ACP passes them to an agent (`session/new`, `session/load`): a stdio
 * server with its command, arguments and environment (every agent takes those); a Streamable HTTP
 * server with its address and headers, only to an agent that declares `mcpCapabilities.http`.
 * Secret values go to the agent, which starts or calls the server itself; Cairn never logs them.
 */
export function acpMcpServers(
  launches: readonly McpLaunch[],
  capabilities: McpCapabilities | null | undefined,
): McpServer[] {
  return launches.flatMap((launch): McpServer[] => {
    if (launch.transport === 'stdio') {
      if (launch.command === null) return [];
      return [{ name: launch.name, command: launch.command, args: [...launch.args], env: pairs(launch.env) }];
    }
    if (launch.url === null || capabilities?.http !== true) return [];
    return [{ type: 'http', name: launch.name, url: launch.url, headers: pairs(launch.headers) }];
  });
}

function pairs(record: Readonly<Record<string, string>>): { name: string; value: string }[] {
  return Object.entries(record).map(([name, value]) => ({ name, value }));
}
