import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestMcpServer } from './test-tools';

export interface HttpTestServer {
  readonly url: string;
  /** Headers of every request received, in order. */
  readonly requests: IncomingHttpHeaders[];
  /** Resolves when a `slow` call begins; its `cancelled` settles when the client cancels it. */
  nextSlowCall(): Promise<{ cancelled: Promise<void> }>;
  close(): Promise<void>;
}

/**
 * The test MCP server over Streamable HTTP on 127.0.0.1 (stateful: one transport per MCP session);
 * `create` serves another server instead (a new one per MCP session).
 */
export async function startHttpTestServer(create?: () => McpServer): Promise<HttpTestServer> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const requests: IncomingHttpHeaders[] = [];
  const slowWaiters: Array<(call: { cancelled: Promise<void> }) => void> = [];
  const slowCalls: { cancelled: Promise<void> }[] = [];
  const onSlowCall = (cancelled: Promise<void>) => {
    const waiter = slowWaiters.shift();
    if (waiter === undefined) slowCalls.push({ cancelled });
    else waiter({ cancelled });
  };
  const http = createServer((req, res) => {
    requests.push(req.headers);
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    if (existing !== undefined) {
      void existing.handleRequest(req, res);
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(400).end('No MCP session');
      return;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        transports.set(id, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) transports.delete(transport.sessionId);
    };
    void (create?.() ?? createTestMcpServer({ onSlowCall }))
      .connect(transport)
      .then(() => transport.handleRequest(req, res));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    nextSlowCall() {
      const ready = slowCalls.shift();
      return ready === undefined ? new Promise((resolve) => slowWaiters.push(resolve)) : Promise.resolve(ready);
    },
    async close() {
      await Promise.all([...transports.values()].map((transport) => transport.close().catch(() => {})));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
