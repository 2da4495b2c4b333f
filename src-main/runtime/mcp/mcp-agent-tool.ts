import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { AgentTool } from '../contract/agent-tool';
import type { McpConnections } from './mcp-connections';
import { agentToolName } from './mcp-tool-names';

export interface McpToolSource {
  readonly serverId: string;
  readonly serverName: string;
  readonly tool: Tool;
}

/**
 * One MCP tool as an agent tool: namespaced by its server, read-only only when the server says so
 * (`readOnlyHint`), and shown for approval as server, tool and arguments.
 */
export function mcpAgentTool(source: McpToolSource, connections: Pick<McpConnections, 'call'>): AgentTool {
  const { serverId, serverName, tool } = source;
  const description = tool.description ?? tool.title ?? tool.name;
  return {
    name: agentToolName(serverName, tool.name),
    description: `${description} (tool "${tool.name}" of the MCP server "${serverName}")`,
    inputSchema: tool.inputSchema,
    readOnly: tool.annotations?.readOnlyHint === true,
    execute: (input, context) =>
      connections.call(serverId, tool.name, input, context.signal, {
        sessionId: context.sessionId,
        turnId: context.turnId,
        runId: context.runId,
        toolCallId: context.toolCallId ?? '',
      }),
    preview: async (input) => ({
      kind: 'mcp',
      server: serverName,
      tool: tool.name,
      arguments: JSON.stringify(input ?? {}, null, 2),
    }),
  };
}
