import {
  client,
  ndJsonStream,
  type ClientCapabilities,
  type ClientConnection,
  type CreateTerminalRequest,
  type CreateTerminalResponse,
  type InitializeResponse,
  type ReadTextFileRequest,
  type ReadTextFileResponse,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionConfigOption,
  type SessionModeState,
  type SessionUpdate,
  type StopReason,
  type TerminalExitStatus,
  type TerminalOutputResponse,
  type WriteTextFileRequest,
} from '@agentclientprotocol/sdk';
import type { AcpCommand, AcpSelector } from '../../../../src-shared/acp-model';
import type { ShellRunResult } from '../../shell/shell-runner';
import { commandsOf, selectorsOf } from './acp-session-offers';
import { isAuthRequired } from './acp-auth-methods';
import type { TerminalCommand } from './acp-terminals';
import { z } from 'zod';
import { bounded, errorText, type AcpBounds } from './acp-bounds';
import { AgentProcess as AppServerProcess, type AgentLaunch as AppServerLaunch } from '../agent-process/agent-process';

export type { AppServerLaunch as AcpLaunch };

/** What the agent said, in order, numbered per process instance (`seq`), for the run that reads it. */
export type AcpMessage =
  | { readonly kind: 'update'; readonly seq: number; readonly sessionId: string; readonly update: SessionUpdate }
  | {
      readonly kind: 'permission';
      readonly seq: number;
      readonly params: RequestPermissionRequest;
      readonly respond: (response: RequestPermissionResponse) => void;
      /** Set when Cairn asks on the agent's behalf before opening a terminal (`terminal/create`). */
      readonly terminal?: TerminalCommand;
    }
  /** A terminal the agent opened started, or ended: its line in the transcript. */
  | { readonly kind: 'terminal_started'; readonly command: TerminalCommand }
  | { readonly kind: 'terminal_exited'; readonly toolCallId: string; readonly result: ShellRunResult }
  /** `session/prompt` answered: the turn is over, with the tokens it used when the agent says. */
  | { readonly kind: 'stop'; readonly stopReason: StopReason; readonly usage: AcpTurnUsage | null }
  /** `authRequired`: the agent refused the prompt until the person signs in (ACP's `auth_required`, -32000). */
  | { readonly kind: 'prompt_failed'; readonly message: string; readonly authRequired: boolean }
  | { readonly kind: 'exited'; readonly code: number | null; readonly signal: string | null };

/**
 * The turn's token usage an agent may put in its `session/prompt` answer (`PromptResponse.usage`:
 * in the SDK's unstable schema, not in the stable type this client is built on, so read and checked here).
 */
const turnUsageSchema = z.object({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  thoughtTokens: z.number().int().nonnegative().nullish(),
  cachedReadTokens: z.number().int().nonnegative().nullish(),
});
export type AcpTurnUsage = z.infer<typeof turnUsageSchema>;

function turnUsageOf(response: object): AcpTurnUsage | null {
  const parsed = turnUsageSchema.safeParse('usage' in response ? response.usage : undefined);
  return parsed.success ? parsed.data : null;
}

/** What the agent says of its session beside the turn's transcript: what it offers now (commands, modes, options), its title. */
export type AcpSessionNews =
  | { readonly kind: 'offered'; readonly commands?: readonly AcpCommand[]; readonly selectors?: readonly AcpSelector[] }
  | { readonly kind: 'title'; readonly title: string };

/** The client side Cairn implements for the agent: its file system and terminal requests. */
export interface AcpClientSide {
  readTextFile(params: ReadTextFileRequest): Promise<ReadTextFileResponse>;
  writeTextFile(params: WriteTextFileRequest): Promise<Record<string, never>>;
  createTerminal(params: CreateTerminalRequest): Promise<CreateTerminalResponse>;
  terminalOutput(terminalId: string): TerminalOutputResponse;
  waitForTerminalExit(terminalId: string): Promise<TerminalExitStatus>;
  killTerminal(terminalId: string): void;
  releaseTerminal(terminalId: string): void;
}

/** What Cairn declares it implements (`initialize`): file reads and writes, terminals, and terminal sign-ins. */
export const CAIRN_CLIENT_CAPABILITIES: ClientCapabilities = {
  fs: { readTextFile: true, writeTextFile: true },
  terminal: true,
  // Cairn runs terminal sign-ins (docs/acp.md "Signing in"); `_meta` for agents that read the older key.
  auth: { terminal: true },
  _meta: { 'terminal-auth': true },
};

/**
 * One running ACP agent: its process (own process group), the SDK client connection over its stdio,
 * and a queue of what it said, read by at most one run at a time. While `replaying` (a
 * `session/load`), the agent's replay of history is dropped: it is already in Cairn's record.
 */
export class LiveAcpAgent {
  readonly process: AppServerProcess;
  readonly connection: ClientConnection;
  private readonly queue: AcpMessage[] = [];
  private wake: (() => void) | null = null;
  private seq = 0;
  private feed: ReadableStreamDefaultController<Uint8Array> | null = null;
  info: InitializeResponse | null = null;
  sessionId: string | null = null;
  /** The agent session's modes (from `session/new` or `session/load`, kept current by mode updates); null when it offers none. */
  modes: SessionModeState | null = null;
  /** The agent session's config options (model, thought level, …), kept current by its updates; empty when it offers none. */
  configOptions: readonly SessionConfigOption[] = [];
  /** Told what the agent says of its session (its commands, modes, options, title), during a replay too. */
  onNews: ((news: AcpSessionNews) => void) | null = null;
  replaying = false;
  /** Told each update the agent replays during a `session/load` (an import keeps them; a restart drops them). */
  onReplay: ((update: SessionUpdate) => void) | null = null;
  /** The agent's cumulative cost in USD as this process last reported it (`usage_update`), and what of it no turn has recorded yet. */
  private costReported = 0;
  private costUnrecorded = 0;
  /** Whether a `session/prompt` is in flight. */
  prompting = false;

  constructor(
    readonly instanceId: string,
    launch: AppServerLaunch,
    readonly launchKey: string,
    side: AcpClientSide,
  ) {
    const encoder = new TextEncoder();
    const decoder = new TextDecoder();
    const input = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.feed = controller;
      },
    });
    this.process = new AppServerProcess(launch, (line) => this.feed?.enqueue(encoder.encode(`${line}\n`)));
    const output = new WritableStream<Uint8Array>({
      write: (chunk) => {
        for (const line of decoder.decode(chunk, { stream: true }).split('\n'))
          if (line.trim() !== '') this.process.send(line);
      },
    });
    this.connection = client({ name: 'cairn' })
      .onNotification('session/update', ({ params }) => {
        this.noteSession(params.update);
        if (this.replaying) {
          this.onReplay?.(params.update);
          return;
        }
        this.push({ kind: 'update', seq: ++this.seq, sessionId: params.sessionId, update: params.update });
      })
      .onRequest(
        'session/request_permission',
        ({ params }) =>
          new Promise<RequestPermissionResponse>((resolve) => {
            this.push({ kind: 'permission', seq: ++this.seq, params, respond: resolve });
          }),
      )
      .onRequest('fs/read_text_file', ({ params }) => side.readTextFile(params))
      .onRequest('fs/write_text_file', ({ params }) => side.writeTextFile(params))
      .onRequest('terminal/create', ({ params }) => side.createTerminal(params))
      .onRequest('terminal/output', ({ params }) => side.terminalOutput(params.terminalId))
      .onRequest('terminal/wait_for_exit', ({ params }) => side.waitForTerminalExit(params.terminalId))
      .onRequest('terminal/kill', ({ params }) => {
        side.killTerminal(params.terminalId);
        return {};
      })
      .onRequest('terminal/release', ({ params }) => {
        side.releaseTerminal(params.terminalId);
        return {};
      })
      .connect(ndJsonStream(output, input));
    void this.process.exited.then(({ code, signal }) => {
      try {
        this.feed?.close();
      } catch {
        // already closed
      }
      this.connection.close(new Error('the ACP agent exited'));
      this.push({ kind: 'exited', code, signal });
    });
  }

  async initialize(cairnVersion: string, bounds: AcpBounds): Promise<InitializeResponse> {
    const info = await bounded(
      this.connection.agent.request('initialize', {
        protocolVersion: 1,
        clientCapabilities: CAIRN_CLIENT_CAPABILITIES,
        clientInfo: { name: 'cairn', title: 'Cairn', version: cairnVersion },
      }),
      bounds.startMs,
      'initialize',
    );
    if (info.protocolVersion !== 1)
      throw new Error(`the agent speaks ACP version ${String(info.protocolVersion)}; Cairn speaks version 1`);
    this.info = info;
    return info;
  }

  /** The agent's modes and config options as selectors, as they stand. */
  selectors(): AcpSelector[] {
    return selectorsOf(this.modes, this.configOptions);
  }

  /** The session's modes and config options as `session/new` or `session/load` gave them. */
  setOffered(modes: SessionModeState | null, configOptions: readonly SessionConfigOption[] | null | undefined): void {
    this.modes = modes;
    this.configOptions = configOptions ?? [];
    this.onNews?.({ kind: 'offered', selectors: this.selectors() });
  }

  private noteSession(update: SessionUpdate): void {
    switch (update.sessionUpdate) {
      case 'available_commands_update':
        this.onNews?.({ kind: 'offered', commands: commandsOf(update.availableCommands) });
        return;
      case 'current_mode_update':
        if (this.modes === null) return;
        this.modes = { ...this.modes, currentModeId: update.currentModeId };
        this.onNews?.({ kind: 'offered', selectors: this.selectors() });
        return;
      case 'config_option_update':
        this.configOptions = update.configOptions;
        this.onNews?.({ kind: 'offered', selectors: this.selectors() });
        return;
      case 'session_info_update':
        if (typeof update.title === 'string' && update.title.trim() !== '')
          this.onNews?.({ kind: 'title', title: update.title.trim().slice(0, 200) });
        return;
      default:
        return;
    }
  }

  /**
   * Whether the agent takes a message into its running turn (`_session/steering`, an extension it
   * advertises in `initialize`'s `_meta.steering.supported`; Claude's agent does).
   */
  steers(): boolean {
    const steering: unknown = this.info?._meta?.steering;
    return typeof steering === 'object' && steering !== null && 'supported' in steering && steering.supported === true;
  }

  /** Puts the person's words into the agent's running turn (`_session/steering`), where it steers; false when it did not take them there. */
  async steer(text: string, bounds: AcpBounds): Promise<boolean> {
    const sessionId = this.sessionId;
    if (sessionId === null || !this.steers()) return false;
    const answer = await bounded(
      this.connection.agent.request<unknown>('_session/steering', {
        sessionId,
        prompt: [{ type: 'text', text }],
        _meta: { steering: { idleBehavior: 'promptRequired' } },
      }),
      bounds.requestMs,
      '_session/steering',
    );
    return typeof answer === 'object' && answer !== null && 'outcome' in answer && answer.outcome === 'injected';
  }

  /** Sends `session/prompt`; its answer arrives in the queue as `stop` (or `prompt_failed`). */
  prompt(text: string): void {
    const sessionId = this.sessionId;
    if (sessionId === null) throw new Error('no ACP session');
    this.prompting = true;
    this.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] }).then(
      (response) => {
        this.prompting = false;
        this.push({ kind: 'stop', stopReason: response.stopReason, usage: turnUsageOf(response) });
      },
      (error: unknown) => {
        this.prompting = false;
        if (!this.process.hasExited)
          this.push({ kind: 'prompt_failed', message: errorText(error), authRequired: isAuthRequired(error) });
      },
    );
  }

  cancel(): void {
    if (this.sessionId !== null)
      void this.connection.agent.notify('session/cancel', { sessionId: this.sessionId }).catch(() => undefined);
  }

  /** The next message, or null when `signal` aborts first. */
  async next(signal: AbortSignal): Promise<AcpMessage | null> {
    for (;;) {
      const message = this.queue.shift();
      if (message !== undefined) return message;
      if (signal.aborted) return null;
      await new Promise<void>((resolve) => {
        const done = () => {
          signal.removeEventListener('abort', done);
          this.wake = null;
          resolve();
        };
        this.wake = done;
        signal.addEventListener('abort', done, { once: true });
      });
    }
  }

  /** Asks the person through the run, as the agent's own permission requests do (before opening a terminal). */
  askPermission(params: RequestPermissionRequest, terminal: TerminalCommand): Promise<RequestPermissionResponse> {
    return new Promise((resolve) =>
      this.push({ kind: 'permission', seq: ++this.seq, params, respond: resolve, terminal }),
    );
  }

  /** Tells the run reading this agent that a terminal started or ended. */
  noteTerminal(message: Extract<AcpMessage, { kind: 'terminal_started' | 'terminal_exited' }>): void {
    this.push(message);
  }

  /** The agent reported its cumulative cost (`usage_update.cost`): what it adds is the turn's. Only USD is counted. */
  noteCost(cost: { readonly amount: number; readonly currency: string } | null | undefined): void {
    if (cost == null || cost.currency.toUpperCase() !== 'USD' || !Number.isFinite(cost.amount) || cost.amount < 0)
      return;
    // A total lower than before is a new count (the agent started over): all of it is new.
    const added = cost.amount >= this.costReported ? cost.amount - this.costReported : cost.amount;
    this.costReported = cost.amount;
    this.costUnrecorded += added;
  }

  /** The cost reported since the last call, in USD, or null when none was. */
  takeCost(): number | null {
    const cost = this.costUnrecorded;
    this.costUnrecorded = 0;
    return cost > 0 ? cost : null;
  }

  /** Drops what no run read. */
  drain(): void {
    this.queue.length = 0;
  }

  private push(message: AcpMessage): void {
    this.queue.push(message);
    this.wake?.();
  }
}
