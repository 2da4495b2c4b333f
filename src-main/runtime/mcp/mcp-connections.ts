import type { ElicitRequestFormParams, ElicitResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerState, McpServerStatus, McpTestResult, McpToolInfo } from '../../../src-shared/mcp-model';
import type { Logger } from '../ports/ports';
import { redactSecrets } from '../connections/providers/redact-secrets';
import type { ToolOutcome } from '../contract/agent-tool';
import type { McpClientHandle, McpLaunch } from './mcp-client';
import { loadMcpClient } from './mcp-client-loader';
import { agentToolName } from './mcp-tool-names';
import { mcpError, outcomeOfResult } from './mcp-tool-output';

export interface McpBounds {
  /** Start + handshake + first tool listing. */
  readonly connectMs: number;
  /** One tool call (progress notifications from the server extend it). */
  readonly callMs: number;
  /** After a server fails to start, how long uses wait before it is tried again (Test, enabling or editing it retries at once). */
  readonly retryStartMs: number;
}

export const DEFAULT_MCP_BOUNDS: McpBounds = { connectMs: 30_000, callMs: 10 * 60_000, retryStartMs: 60_000 };

export interface McpConnectionsDeps {
  /** The server's current launch settings, or null when it is gone. */
  launchOf(serverId: string): McpLaunch | null;
  /** A server's status changed. */
  onStatus(serverId: string): void;
  readonly logger: Logger;
  now(): number;
  readonly bounds?: Partial<McpBounds>;
  /** A server asked the person something during one of its calls (elicitation); absent: it is refused. */
  elicit?(request: McpElicitation): Promise<ElicitResult>;
}

/** Who runs a call: the session, turn, run and tool call an elicitation during it belongs to. */
export interface McpCaller {
  readonly sessionId: string;
  readonly turnId: string;
  readonly runId: string;
  readonly toolCallId: string;
}

/** An elicitation, with the call it came during. */
export interface McpElicitation {
  readonly caller: McpCaller;
  readonly serverName: string;
  readonly params: ElicitRequestFormParams;
  /** The request as the server sent it. */
  readonly raw: unknown;
  /** Aborts when the server withdraws the request or the call ends. */
  readonly signal: AbortSignal;
}

interface InFlightCall {
  readonly caller: McpCaller;
  readonly signal: AbortSignal;
}

interface Live {
  state: Exclude<McpServerState, 'disabled'>;
  message: string | null;
  stderrTail: string | null;
  handle: McpClientHandle | null;
  tools: Tool[];
  starting: Promise<McpClientHandle | null> | null;
  /** The tool list being re-read after list_changed (the next step waits for it). */
  refreshing: Promise<void> | null;
  /** When it last failed to start (not a crash after it ran): uses wait retryStartMs before trying again. */
  startFailedAt: number | null;
  /** Bumped by stop(): a start or close event from an older generation changes nothing. */
  generation: number;
}

/**
 * The live connections to MCP servers: started on first need (and at host start for enabled ones),
 * their tool lists kept current (list_changed), a crashed one marked failed with its stderr tail and
 * started again on its next use. Every await is bounded.
 */
export class McpConnections {
  private readonly live = new Map<string, Live>();
  /** The calls each server is running now (an elicitation belongs to one of them). */
  private readonly inFlight = new Map<string, Set<InFlightCall>>();
  private readonly bounds: McpBounds;

  /** How long connecting (and one listing) may take. */
  get connectMs(): number {
    return this.bounds.connectMs;
  }

  constructor(private readonly deps: McpConnectionsDeps) {
    this.bounds = { ...DEFAULT_MCP_BOUNDS, ...deps.bounds };
  }

  status(serverId: string, enabled: boolean): McpServerStatus {
    const live = this.live.get(serverId);
    const launch = this.deps.launchOf(serverId);
    const tools = live?.state === 'connected' && launch !== null ? this.toolInfos(launch.name, live.tools) : [];
    return {
      state: !enabled ? 'disabled' : (live?.state ?? 'stopped'),
      message: live?.message ?? null,
      stderrTail: live?.stderrTail ?? null,
      serverInfo: live?.handle?.serverInfo ?? null,
      tools,
    };
  }

  /** The tools of a connected server (none while it is not connected). */
  connectedTools(serverId: string): readonly Tool[] {
    const live = this.live.get(serverId);
    return live?.state === 'connected' ? live.tools : [];
  }

  /** Connects the server unless it is connected; resolves (never rejects) once it is connected or has failed. */
  async ensure(serverId: string): Promise<McpClientHandle | null> {
    const live = this.entry(serverId);
    if (live.state === 'connected' && live.handle !== null) {
      const handle = live.handle;
      if (live.refreshing !== null) await live.refreshing;
      return handle;
    }
    // A server that would not start is not started again at every step (each try can take connectMs).
    if (
      live.starting === null &&
      live.startFailedAt !== null &&
      this.deps.now() - live.startFailedAt < this.bounds.retryStartMs
    )
      return null;
    live.starting ??= this.start(serverId, live);
    return live.starting;
  }

  async call(
    serverId: string,
    toolName: string,
    input: unknown,
    signal: AbortSignal,
    caller?: McpCaller,
  ): Promise<ToolOutcome> {
    const launch = this.deps.launchOf(serverId);
    if (launch === null) return mcpError('server_unavailable', 'This MCP server was removed.');
    if (typeof input !== 'object' || input === null || Array.isArray(input))
      return mcpError('call_failed', 'The input of an MCP tool must be a JSON object.');
    const handle = await this.ensure(serverId);
    const live = this.entry(serverId);
    if (handle === null)
      return mcpError(
        'server_unavailable',
        `The MCP server "${launch.name}" is not available: ${live.message ?? 'it did not start'}.`,
      );
    const running = this.inFlight.get(serverId) ?? new Set<InFlightCall>();
    this.inFlight.set(serverId, running);
    const entry = caller === undefined ? null : { caller, signal };
    if (entry !== null) running.add(entry);
    try {
      const result = await handle.client.callTool(
        { name: toolName, arguments: input as Record<string, unknown> },
        undefined,
        {
          signal,
          timeout: this.bounds.callMs,
          resetTimeoutOnProgress: true,
        },
      );
      return outcomeOfResult(result as Parameters<typeof outcomeOfResult>[0]);
    } catch (error) {
      const redact = (text: string) => redactSecrets(text, launch.secrets);
      if (signal.aborted) return mcpError('call_failed', 'The call was stopped.');
      const kind = (await loadMcpClient()).callErrorKind(error);
      if (kind === 'connection_closed') {
        const tail =
          live.stderrTail === null ? '' : ` Its last output: ${live.stderrTail.split('\n').slice(-3).join(' | ')}`;
        return mcpError(
          'server_exited',
          `The MCP server "${launch.name}" stopped while running ${toolName}; it will be started again on its next use.${tail}`,
        );
      }
      if (kind === 'request_timeout') {
        return mcpError(
          'timed_out',
          `${toolName} on "${launch.name}" did not answer within ${Math.round(this.bounds.callMs / 1000)} s.`,
        );
      }
      return mcpError(
        'call_failed',
        redact(`${toolName} on "${launch.name}" failed: ${error instanceof Error ? error.message : String(error)}`),
      );
    } finally {
      if (entry !== null) running.delete(entry);
    }
  }

  /**
   * A server asks the person something. The protocol does not say which call it comes from, so it is
   * shown only when exactly one call to that server is running; otherwise the server is told why not.
   */
  private async elicit(
    serverId: string,
    serverName: string,
    params: ElicitRequestFormParams,
    raw: unknown,
    signal: AbortSignal,
  ): Promise<ElicitResult> {
    const calls = [...(this.inFlight.get(serverId) ?? [])].filter((call) => !call.signal.aborted);
    const [call] = calls;
    if (this.deps.elicit === undefined || call === undefined) {
      throw (await loadMcpClient()).protocolRefusal(
        'invalid_request',
        "Cairn shows a server's questions (elicitation) only while one of its tools runs for an agent; none is running now.",
      );
    }
    if (calls.length > 1) {
      throw (await loadMcpClient()).protocolRefusal(
        'invalid_request',
        `Cairn cannot tell which of the ${calls.length} calls running on this server asks, so the question was not shown. Ask again when one call runs.`,
      );
    }
    return this.deps.elicit({
      caller: call.caller,
      serverName,
      params,
      raw,
      signal: AbortSignal.any([signal, call.signal]),
    });
  }

  /** Connects afresh (apart from the live connection) to report name, version and tools. */
  async test(launch: McpLaunch): Promise<McpTestResult> {
    let handle: McpClientHandle | null = null;
    try {
      const { connectMcpServer, listAllTools } = await loadMcpClient();
      handle = await connectMcpServer(launch, {
        timeoutMs: this.bounds.connectMs,
        onToolsChanged: () => {},
        onClosed: () => {},
      });
      const tools = await listAllTools(handle.client, this.bounds.connectMs);
      return {
        serverId: launch.serverId,
        ok: true,
        message: null,
        stderrTail: handle.stderrTail(),
        serverInfo: handle.serverInfo,
        tools: this.toolInfos(launch.name, tools),
      };
    } catch (error) {
      const stderrTail =
        handle?.stderrTail() ?? (error instanceof Error && typeof error.cause === 'string' ? error.cause : null);
      return {
        serverId: launch.serverId,
        ok: false,
        message: redactSecrets(error instanceof Error ? error.message : String(error), launch.secrets),
        stderrTail,
        serverInfo: null,
        tools: [],
      };
    } finally {
      await handle?.close();
    }
  }

  forgetStartFailure(serverId: string): void {
    const live = this.live.get(serverId);
    if (live !== undefined) live.startFailedAt = null;
  }

  /** Ends the server's connection (settings changed, disabled or removed); the next use starts it again. */
  async stop(serverId: string): Promise<void> {
    const live = this.live.get(serverId);
    if (live === undefined) return;
    this.live.delete(serverId);
    live.generation += 1;
    await live.handle?.close();
    this.deps.onStatus(serverId);
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.live.keys()].map((serverId) => this.stop(serverId)));
  }

  toolInfos(serverName: string, tools: readonly Tool[]): McpToolInfo[] {
    return tools.map((tool) => ({
      name: tool.name,
      agentName: agentToolName(serverName, tool.name),
      description: tool.description ?? tool.title ?? '',
      readOnly: tool.annotations?.readOnlyHint === true,
    }));
  }

  private entry(serverId: string): Live {
    let live = this.live.get(serverId);
    if (live === undefined) {
      live = {
        state: 'stopped',
        message: null,
        stderrTail: null,
        handle: null,
        tools: [],
        starting: null,
        refreshing: null,
        startFailedAt: null,
        generation: 0,
      };
      this.live.set(serverId, live);
    }
    return live;
  }

  private async start(serverId: string, live: Live): Promise<McpClientHandle | null> {
    const generation = live.generation;
    const current = () => this.live.get(serverId) === live && live.generation === generation;
    const launch = this.deps.launchOf(serverId);
    try {
      if (launch === null) return null;
      Object.assign(live, { state: 'starting', message: null, handle: null, tools: [] });
      this.deps.onStatus(serverId);
      let handle: McpClientHandle | null = null;
      try {
        const { connectMcpServer } = await loadMcpClient();
        handle = await connectMcpServer(launch, {
          timeoutMs: this.bounds.connectMs,
          onElicit: (params, raw, signal) => this.elicit(serverId, launch.name, params, raw, signal),
          onToolsChanged: (listing) => {
            const refreshing: Promise<void> = listing
              .then(
                (tools) => {
                  if (!current() || live.handle !== handle) return;
                  live.tools = tools;
                  this.deps.onStatus(serverId);
                },
                () => {}, // The old list stays; the next change or restart reads it again.
              )
              .finally(() => {
                if (live.refreshing === refreshing) live.refreshing = null;
              });
            live.refreshing = refreshing;
          },
          onClosed: () => {
            if (!current() || live.handle !== handle) return;
            const tail = handle?.stderrTail() ?? null;
            Object.assign(live, {
              state: 'failed',
              message: 'The server stopped. It will be started again on its next use.',
              stderrTail: tail,
              handle: null,
              tools: [],
            });
            this.deps.logger.warn('An MCP server stopped', { serverId });
            this.deps.onStatus(serverId);
          },
        });
        const tools = await (await loadMcpClient()).listAllTools(handle.client, this.bounds.connectMs);
        if (!current()) {
          await handle.close();
          return null;
        }
        Object.assign(live, {
          state: 'connected',
          message: null,
          stderrTail: handle.stderrTail(),
          handle,
          tools,
          startFailedAt: null,
        });
        this.deps.onStatus(serverId);
        return handle;
      } catch (error) {
        await handle?.close();
        if (!current()) return null;
        const message = error instanceof Error ? error.message : String(error);
        const stderrTail =
          handle?.stderrTail() ?? (error instanceof Error && typeof error.cause === 'string' ? error.cause : null);
        Object.assign(live, {
          state: 'failed',
          message: redactSecrets(message, launch.secrets),
          stderrTail,
          handle: null,
          tools: [],
          startFailedAt: this.deps.now(),
        });
        this.deps.logger.warn('An MCP server failed to start', { serverId });
        this.deps.onStatus(serverId);
        return null;
      }
    } finally {
      live.starting = null;
    }
  }
}
