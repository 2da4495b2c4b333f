import type { GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { fail, ok, type Outcome } from '../../../src-shared/errors';
import type { McpPromptInfo, McpResourceInfo } from '../../../src-shared/mcp-model';
import type { McpClientHandle } from './mcp-client';

export interface McpCatalogDeps {
  /** The servers the session uses (enabled, not turned off there), or null when the session does not exist. */
  serversOf(sessionId: string): readonly { serverId: string; name: string }[] | null;
  /** Connects the server (bounded); null when it cannot be reached. */
  ensure(serverId: string): Promise<McpClientHandle | null>;
  readonly timeoutMs: number;
}

/** The prompts and resources of a session's servers: what the composer offers (MCP prompts and resources). */
export async function sessionCatalog(
  deps: McpCatalogDeps,
  sessionId: string,
): Promise<Outcome<{ sessionId: string; prompts: McpPromptInfo[]; resources: McpResourceInfo[] }, 'not_found'>> {
  const servers = deps.serversOf(sessionId);
  if (servers === null) return fail('not_found', 'That session does not exist.');
  const prompts: McpPromptInfo[] = [];
  const resources: McpResourceInfo[] = [];
  await Promise.all(
    servers.map(async (server) => {
      const handle = await deps.ensure(server.serverId);
      const capabilities = handle?.client.getServerCapabilities();
      if (handle === null || capabilities === undefined) return;
      const options = { timeout: deps.timeoutMs };
      // A server that fails to list one of them still offers the other.
      if (capabilities.prompts !== undefined) {
        const listed = await handle.client.listPrompts({}, options).catch(() => null);
        for (const prompt of listed?.prompts ?? []) {
          prompts.push({
            serverId: server.serverId,
            serverName: server.name,
            name: prompt.name,
            title: prompt.title ?? prompt.name,
            description: prompt.description ?? '',
            arguments: (prompt.arguments ?? []).map((argument) => ({
              name: argument.name,
              description: argument.description ?? '',
              required: argument.required === true,
            })),
          });
        }
      }
      if (capabilities.resources !== undefined) {
        const listed = await handle.client.listResources({}, options).catch(() => null);
        for (const resource of listed?.resources ?? []) {
          resources.push({
            serverId: server.serverId,
            serverName: server.name,
            uri: resource.uri,
            name: resource.title ?? resource.name,
            description: resource.description ?? '',
            mimeType: resource.mimeType ?? null,
          });
        }
      }
    }),
  );
  return ok({ sessionId, prompts, resources });
}

async function reach(
  deps: McpCatalogDeps,
  sessionId: string,
  serverId: string,
): Promise<Outcome<McpClientHandle, 'not_found' | 'operation_unavailable'>> {
  const servers = deps.serversOf(sessionId);
  if (servers === null) return fail('not_found', 'That session does not exist.');
  const server = servers.find((candidate) => candidate.serverId === serverId);
  if (server === undefined) return fail('not_found', 'That MCP server is not on in this session.');
  const handle = await deps.ensure(serverId);
  return handle === null
    ? fail(
        'operation_unavailable',
        `The MCP server "${server.name}" is not available; see its status in Settings → Tools (MCP).`,
      )
    : ok(handle);
}

/** A prompt's messages as one text for the composer (its text parts; other parts named). */
export async function promptText(
  deps: McpCatalogDeps,
  input: { sessionId: string; serverId: string; name: string; arguments?: Record<string, string> | undefined },
): Promise<Outcome<{ text: string }, 'not_found' | 'operation_unavailable'>> {
  const reached = await reach(deps, input.sessionId, input.serverId);
  if (!reached.ok) return reached;
  let result: GetPromptResult;
  try {
    result = await reached.result.client.getPrompt(
      { name: input.name, ...(input.arguments === undefined ? {} : { arguments: input.arguments }) },
      { timeout: deps.timeoutMs },
    );
  } catch (error) {
    return fail(
      'operation_unavailable',
      `The server could not give the prompt "${input.name}": ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const text = result.messages
    .map((message) =>
      message.content.type === 'text'
        ? message.content.text
        : message.content.type === 'resource' && 'text' in message.content.resource
          ? message.content.resource.text
          : `[${message.content.type}]`,
    )
    .join('\n\n');
  return ok({ text });
}

/** A resource's text contents (a binary resource is refused: there is no text to attach). */
export async function resourceText(
  deps: McpCatalogDeps,
  input: { sessionId: string; serverId: string; uri: string },
): Promise<Outcome<{ uri: string; mimeType: string | null; text: string }, 'not_found' | 'operation_unavailable'>> {
  const reached = await reach(deps, input.sessionId, input.serverId);
  if (!reached.ok) return reached;
  let result: ReadResourceResult;
  try {
    result = await reached.result.client.readResource({ uri: input.uri }, { timeout: deps.timeoutMs });
  } catch (error) {
    return fail(
      'operation_unavailable',
      `The server could not read ${input.uri}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const texts = result.contents.flatMap((content) => ('text' in content ? [content.text] : []));
  if (texts.length === 0) return fail('operation_unavailable', `${input.uri} has no text to attach (it is binary).`);
  return ok({ uri: input.uri, mimeType: result.contents[0]?.mimeType ?? null, text: texts.join('\n') });
}
