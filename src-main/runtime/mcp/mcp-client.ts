import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  McpError,
  ToolListChangedNotificationSchema,
  type ElicitRequestFormParams,
  type ElicitResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { redactSecrets } from '../connections/providers/redact-secrets';
import { childEnvironment } from '../shell/child-environment';

/** Everything needed to start or reach one server, secrets included (held in memory only). */
export interface McpLaunch {
  readonly serverId: string;
  readonly name: string;
  readonly transport: 'stdio' | 'http';
  readonly command: string | null;
  readonly args: readonly string[];
  readonly cwd: string | null;
  readonly env: Readonly<Record<string, string>>;
  readonly url: string | null;
  readonly headers: Readonly<Record<string, string>>;
  /** Values that must never appear in a status, result or log. */
  readonly secrets: readonly string[];
}

export const CAIRN_CLIENT_INFO = { name: 'cairn', version: '0.1.0' } as const;

const STDERR_TAIL_CHARS = 4000;

/** What a server that asks Cairn's model for a completion (sampling) is told. */
export const SAMPLING_REFUSAL =
  "Cairn does not let MCP servers use its model (sampling is refused): a server could spend the person's tokens and see their conversation without their approval.";

/** One live client: the SDK's Client over its transport, with the server's stderr tail kept. */
export interface McpClientHandle {
  readonly client: Client;
  readonly serverInfo: { name: string; version: string };
  /** The last lines the server wrote to stderr, secrets redacted. */
  stderrTail(): string | null;
  close(): Promise<void>;
}

export interface ConnectOptions {
  readonly timeoutMs: number;
  /**
   * The server said its tool list changed (notifications/tools/list_changed): told at once, with the
   * re-read list to come, so the next step can wait for it.
   */
  readonly onToolsChanged: (tools: Promise<Tool[]>) => void;
  /** The connection ended (the process exited, or the HTTP session was closed). */
  readonly onClosed: () => void;
  /**
   * The server asks the person something (elicitation, form mode): `raw` is the request as sent,
   * `signal` aborts when the server withdraws it. Without this, the server is told Cairn cannot ask.
   */
  readonly onElicit?: (params: ElicitRequestFormParams, raw: unknown, signal: AbortSignal) => Promise<ElicitResult>;
}

/** What a server that asks the person something where Cairn cannot show it is told. */
export const ELICITATION_UNAVAILABLE =
  'Cairn cannot ask the person anything on this connection (it is only a test of the server).';

/** The elicitation request kept as sent: the SDK still checks it, and Cairn can read keys the SDK drops (`writeOnly`). */
const RawElicitRequestSchema = z.looseObject({
  method: z.literal(ElicitRequestSchema.shape.method.value),
  params: z.looseObject({}),
});

/**
 * Starts (stdio) or reaches (Streamable HTTP) one server and completes the MCP handshake, within
 * `timeoutMs`. A failure throws an Error whose message says what went wrong, secrets redacted.
 */
export async function connectMcpServer(launch: McpLaunch, options: ConnectOptions): Promise<McpClientHandle> {
  let stderr = '';
  const transport: Transport & { stderr?: unknown } =
    launch.transport === 'stdio'
      ? new StdioClientTransport({
          command: launch.command ?? '',
          args: [...launch.args],
          env: childEnvironment({ base: getDefaultEnvironment(), scrubSecrets: false, extra: launch.env }),
          stderr: 'pipe',
          ...(launch.cwd === null ? {} : { cwd: launch.cwd }),
        })
      : new StreamableHTTPClientTransport(new URL(launch.url ?? ''), {
          requestInit: { headers: { ...launch.headers } },
        });
  if (transport instanceof StdioClientTransport) {
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
    });
  }
  const client = new Client(CAIRN_CLIENT_INFO, {
    // Sampling is declared so a server that asks gets a clear refusal rather than "method not found".
    // Elicitation: form mode only (URL mode would send the person to a web page outside Cairn).
    capabilities: { sampling: {}, elicitation: { form: {} } },
  });
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    options.onToolsChanged(listAllTools(client, options.timeoutMs));
  });
  client.setRequestHandler(CreateMessageRequestSchema, () => {
    throw new McpError(ErrorCode.InvalidRequest, SAMPLING_REFUSAL);
  });
  // The SDK has checked the request against the spec before this runs (and refuses URL mode).
  client.setRequestHandler(RawElicitRequestSchema, async (request, extra) => {
    const params = ElicitRequestSchema.shape.params.parse(request.params);
    if (params.mode === 'url')
      throw new McpError(ErrorCode.InvalidParams, 'Cairn does not support URL-mode elicitation.');
    if (options.onElicit === undefined) throw new McpError(ErrorCode.InvalidRequest, ELICITATION_UNAVAILABLE);
    return options.onElicit(params, request, extra.signal);
  });
  let closed = false;
  client.onclose = () => {
    if (closed) return;
    closed = true;
    options.onClosed();
  };
  // Errors also surface through the request that failed; the handler keeps the SDK from logging them.
  client.onerror = () => {};
  const redact = (text: string) => redactSecrets(text, launch.secrets);
  const tail = () => {
    const trimmed = redact(stderr).trim();
    return trimmed === '' ? null : trimmed.split('\n').slice(-20).join('\n');
  };
  try {
    await client.connect(transport, { timeout: options.timeoutMs });
  } catch (error) {
    closed = true;
    await closeBounded(client);
    throw new Error(redact(describeConnectError(launch, error, options.timeoutMs)), { cause: tail() });
  }
  const version = client.getServerVersion();
  return {
    client,
    serverInfo: { name: version?.name ?? launch.name, version: version?.version ?? '' },
    stderrTail: tail,
    async close() {
      closed = true;
      await closeBounded(client);
    },
  };
}

/** What an error the SDK threw during a call means here (null: something else). */
export function callErrorKind(error: unknown): 'connection_closed' | 'request_timeout' | null {
  if (!(error instanceof McpError)) return null;
  if (error.code === ErrorCode.ConnectionClosed) return 'connection_closed';
  return error.code === ErrorCode.RequestTimeout ? 'request_timeout' : null;
}

/** An error the server receives as the JSON-RPC answer to its request. */
export function protocolRefusal(kind: 'invalid_request' | 'invalid_params', message: string): Error {
  return new McpError(kind === 'invalid_request' ? ErrorCode.InvalidRequest : ErrorCode.InvalidParams, message);
}

/** Lists every tool of the server (following pages), within `timeoutMs`. */
export async function listAllTools(client: Client, timeoutMs: number): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout: timeoutMs });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined && tools.length < 1000);
  return tools;
}

/** Closing a stdio server can wait up to 4 s for it to exit; nothing waits longer than 1 s here. */
async function closeBounded(client: Client): Promise<void> {
  await Promise.race([client.close().catch(() => {}), new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
}

function describeConnectError(launch: McpLaunch, error: unknown, timeoutMs: number): string {
  const message = error instanceof Error ? error.message : String(error);
  const code =
    typeof error === 'object' && error !== null && 'code' in error ? (error as { code: unknown }).code : null;
  if (code === 'ENOENT')
    return `Could not start "${launch.command ?? ''}": no such program. Check the command (and PATH).`;
  if (code === 'EACCES') return `Could not start "${launch.command ?? ''}": permission denied.`;
  if (/timed? ?out/i.test(message))
    return `The server did not finish the MCP handshake within ${Math.round(timeoutMs / 1000)} s.`;
  if (/Connection closed/i.test(message)) return 'The server exited before it finished the MCP handshake.';
  if (code === 'ECONNREFUSED' || /fetch failed|ECONNREFUSED/i.test(message))
    return `Nothing answers at ${launch.url ?? ''}.`;
  return `Could not connect: ${message}`;
}
