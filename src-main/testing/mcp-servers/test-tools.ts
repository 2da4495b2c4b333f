import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export const TEST_SERVER_INFO = { name: 'cairn-test-server', version: '1.2.3' } as const;

/** What a test can watch the server do (the in-process HTTP server reports here; the stdio one cannot). */
export interface TestToolHooks {
  /** A call of `slow` began; `cancelled` resolves when the client cancels it. */
  onSlowCall?(cancelled: Promise<void>): void;
  /** The process should end now (the stdio server exits; the HTTP one never gets this). */
  crash?(): void;
}

/**
 * A small real MCP server for Cairn's tests, built with the SDK's McpServer: a read-only `echo`,
 * a `write_note` that changes something, a `slow` tool that ignores cancellation, `show_env`,
 * `crash`, and `add_tool`, which registers `late_tool` (the SDK sends tools/list_changed).
 */
export function createTestMcpServer(hooks: TestToolHooks = {}): McpServer {
  const server = new McpServer(TEST_SERVER_INFO, { capabilities: { tools: { listChanged: true } } });
  server.registerTool(
    'echo',
    {
      description: 'Repeats the text it is given.',
      inputSchema: { text: z.string() },
      annotations: { readOnlyHint: true },
    },
    ({ text }) => ({
      content: [{ type: 'text', text: `echo: ${text}` }],
    }),
  );
  server.registerTool(
    'write_note',
    {
      description: 'Saves a note (changes something).',
      inputSchema: { note: z.string() },
      annotations: { readOnlyHint: false },
    },
    ({ note }) => ({
      content: [{ type: 'text', text: `saved note "${note}"` }],
      structuredContent: { saved: note },
    }),
  );
  server.registerTool(
    'slow',
    {
      description: 'Takes a very long time and ignores cancellation.',
      inputSchema: {},
      annotations: { readOnlyHint: true },
    },
    (_args, extra) => {
      const cancelled = new Promise<void>((resolve) =>
        extra.signal.addEventListener('abort', () => resolve(), { once: true }),
      );
      hooks.onSlowCall?.(cancelled);
      // Never answers, even when cancelled.
      return new Promise(() => {});
    },
  );
  server.registerTool(
    'show_env',
    {
      description: 'Tells whether an environment variable is set.',
      inputSchema: { name: z.string() },
      annotations: { readOnlyHint: true },
    },
    ({ name }) => ({
      content: [
        {
          type: 'text',
          text:
            process.env[name] === undefined
              ? `${name} is not set`
              : `${name} is set (${process.env[name]?.length ?? 0} characters)`,
        },
      ],
    }),
  );
  server.registerTool(
    'crash',
    { description: 'Makes the server exit.', inputSchema: {}, annotations: { readOnlyHint: true } },
    () => {
      hooks.crash?.();
      return new Promise(() => {});
    },
  );
  server.registerTool(
    'ask_model',
    {
      description: 'Asks the client for a model completion (sampling).',
      inputSchema: {},
      annotations: { readOnlyHint: true },
    },
    async () => {
      try {
        await server.server.createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: 'hello' } }],
          maxTokens: 10,
        });
        return { content: [{ type: 'text', text: 'sampling worked' }] };
      } catch (error) {
        return {
          content: [
            { type: 'text', text: `sampling refused: ${error instanceof Error ? error.message : String(error)}` },
          ],
          isError: true,
        };
      }
    },
  );
  server.registerTool(
    'add_tool',
    { description: 'Adds the tool late_tool.', inputSchema: {}, annotations: { readOnlyHint: true } },
    () => {
      server.registerTool(
        'late_tool',
        { description: 'A tool added while connected.', inputSchema: {}, annotations: { readOnlyHint: true } },
        () => ({
          content: [{ type: 'text', text: 'late tool ran' }],
        }),
      );
      return { content: [{ type: 'text', text: 'added late_tool' }] };
    },
  );
  server.registerPrompt(
    'review',
    { title: 'Review a file', description: 'Asks for a careful review.', argsSchema: { file: z.string() } },
    ({ file }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Please review ${file} carefully.` } }],
    }),
  );
  server.registerResource(
    'notes',
    'notes://today',
    { title: 'Today’s notes', description: 'The notes of the day.', mimeType: 'text/plain' },
    (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'Buy milk. Call Ada.' }],
    }),
  );
  return server;
}
