/** What an MCP tool call will do, for its approval: the server, the tool, and the exact arguments. */
export function McpCallPreview({ server, tool, args }: { server: string; tool: string; args: string }) {
  return (
    <figure className="command-view mcp-call-view">
      <figcaption className="diff-path">
        MCP server <strong>{server}</strong> · tool <code>{tool}</code>
      </figcaption>
      <pre className="command-line" aria-label="Arguments">
        {args}
      </pre>
    </figure>
  );
}
