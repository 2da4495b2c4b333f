import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolOutcome } from '../contract/agent-tool';

/** How an MCP call failed, so the transcript and the model can tell a broken server from a tool's own error. */
export type McpErrorClass = 'tool_error' | 'server_unavailable' | 'server_exited' | 'timed_out' | 'call_failed';

export function mcpError(errorClass: McpErrorClass, message: string): ToolOutcome {
  return { output: { error: message, errorClass }, isError: true };
}

/** A tool's result as the model reads it: its text parts joined, and its structured content when it has some. */
export function outcomeOfResult(result: CallToolResult): ToolOutcome {
  const text = result.content.map(describePart).join('\n');
  if (result.isError === true)
    return mcpError('tool_error', text === '' ? 'The tool reported an error without saying why.' : text);
  return {
    output: {
      text,
      ...(result.structuredContent === undefined ? {} : { structuredContent: result.structuredContent }),
    },
    isError: false,
  };
}

function describePart(part: CallToolResult['content'][number]): string {
  switch (part.type) {
    case 'text':
      return part.text;
    case 'resource':
      return 'text' in part.resource ? part.resource.text : `[binary resource ${part.resource.uri}]`;
    case 'resource_link':
      return `[resource ${part.uri}${part.name === '' ? '' : ` (${part.name})`}]`;
    case 'image':
      return `[image, ${part.mimeType}]`;
    case 'audio':
      return `[audio, ${part.mimeType}]`;
  }
}
