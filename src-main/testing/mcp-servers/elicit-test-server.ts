import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { fileURLToPath } from 'node:url';
import { testProgramArgs } from '../test-programs';

/** The command that runs this server over stdio (its bundle, or the source through tsx). */
export function elicitTestServerCommand(): { command: string; args: string[] } {
  return { command: process.execPath, args: testProgramArgs('src-main/testing/mcp-servers/elicit-test-server.ts') };
}

/** What `ask_details` asks for: every kind of field the spec allows, a name that is not an id, an enum value with a space, and a `writeOnly` field. */
export const DETAILS_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Your name', description: 'As it should appear on the label.', minLength: 2 },
    'copies wanted': { type: 'integer', title: 'Copies', minimum: 1, maximum: 10, default: 1 },
    colour: { type: 'string', title: 'Colour', enum: ['Light blue', 'Red'], enumNames: ['Light blue', 'Bright red'] },
    express: { type: 'boolean', title: 'Express delivery' },
    token: { type: 'string', title: 'Access token', writeOnly: true },
  },
  required: ['name', 'copies wanted'],
} as const;

/**
 * A small MCP server whose tool asks the person (elicitation) while it runs: `ask_details` sends
 * DETAILS_SCHEMA and reports what came back, never echoing the token itself (only its length).
 */
export function createElicitTestServer(): McpServer {
  const server = new McpServer({ name: 'cairn-elicit-test-server', version: '0.0.1' }, { capabilities: { tools: {} } });
  server.registerTool(
    'ask_details',
    {
      description: 'Asks the person for their details, then reports them.',
      inputSchema: {},
      annotations: { readOnlyHint: true },
    },
    async (_args, extra) => {
      try {
        const result = await extra.sendRequest(
          {
            method: 'elicitation/create',
            params: { message: 'Which label should I print?', requestedSchema: DETAILS_SCHEMA as never },
          },
          ElicitResultSchema,
          { timeout: 10 * 60_000 },
        );
        if (result.action !== 'accept')
          return { content: [{ type: 'text', text: `the person chose ${result.action}` }] };
        const { token, ...rest } = result.content ?? {};
        const reported = { ...rest, ...(token === undefined ? {} : { tokenLength: String(token).length }) };
        return { content: [{ type: 'text', text: `accepted ${JSON.stringify(reported)}` }] };
      } catch (error) {
        return {
          content: [
            { type: 'text', text: `elicitation failed: ${error instanceof Error ? error.message : String(error)}` },
          ],
          isError: true,
        };
      }
    },
  );
  return server;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await createElicitTestServer().connect(new StdioServerTransport());
}
