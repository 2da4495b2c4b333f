import type * as McpClient from './mcp-client';

let loading: Promise<typeof McpClient> | null = null;

/**
 * The MCP SDK costs the idle host memory it does not need until a server is used, so `mcp-client.ts`
 * (the only module built on the SDK's classes) loads when a server is first started or tested.
 */
export function loadMcpClient(): Promise<typeof McpClient> {
  return (loading ??= import('./mcp-client'));
}
