import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type {
  CreateTerminalRequest,
  CreateTerminalResponse,
  ReadTextFileRequest,
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionModeState,
  StopReason,
  WriteTextFileRequest,
} from '@agentclientprotocol/sdk';
import type { AcpAgentIdentity } from '../../../../src-shared/acp-model';
import type { AcpAgentCommand } from '../../../../src-shared/connection-model';
import type { ContextMeter } from '../../../../src-shared/context-model';
import type { PermissionMode } from '../../../../src-shared/model';
import type { AcpStore } from '../../../storage/acp-store';
import type { AgentBackend, AgentEvent, AgentRunInput, HistoryMessage } from '../agent-backend';
import { AgentBackendError } from '../agent-backend';
import type { Logger } from '../../core/ports';
import type { McpLaunch } from '../../mcp/mcp-client';
import type { ShellOutputChunk, ShellRunner } from '../../shell/shell-runner';
import { ACP_TERMINAL_TOOL, AcpTerminals, terminalPermission, terminalResult } from './acp-terminals';
import { AcpEventMapper } from './acp-event-mapper';
import { acpMcpServers } from './acp-mcp';
import { bridgePermission, permissionResponse } from './acp-permissions';
import { loadAcpAgent } from './acp-agent-loader';
import { bounded, DEFAULT_ACP_BOUNDS, errorText, type AcpBounds } from './acp-bounds';
import type { AcpTurnUsage, LiveAcpAgent } from './live-acp-agent';

export interface AcpBackendDeps {
  resolve(connectionId: string): AcpAgentCommand | { error: string };
  sessionOf(sessionId: string): { workspacePath: string | null; permissionMode: PermissionMode } | null;
  /** The MCP servers the session has on, passed to the agent in `session/new` and `session/load`. */
  mcpServersOf(sessionId: string): readonly McpLaunch[];
  readonly checkpoints: AcpStore;
  allowedForSession(sessionId: string, toolName: string): boolean;
  readonly dataDir: string;
  readonly cairnVersion: string;
  newInstanceId(): string;
  now(): number;
  readonly logger: Logger;
  readonly bounds?: Partial<AcpBounds>;
  /** The agent named itself (`initialize`) as it started for the session: the header names it so. */
  onAgent(sessionId: string, agent: AcpAgentIdentity): void;
  /** The agent reported how full its context is (`usage_update`): the header's context meter. */
  onContextMeter(sessionId: string, meter: ContextMeter): void;
  /** Where the agent's terminals run (Cairn's shell runs), and their live output goes. */
  readonly shell: { readonly runner: ShellRunner; onOutput(sessionId: string, chunk: ShellOutputChunk): void };
}

export interface AcpBackend extends AgentBackend {
  /** A turn of the session was stopped while the agent waited for the person: its request is cancelled. */
  releaseWaiting(sessionId: string): Promise<void>;
  /** Whether the session's last agent process could not be confirmed gone (no new one starts until it is). */
  quarantined(sessionId: string): boolean;
  /** Ends every agent process (host shutdown). */
  shutdown(): Promise<void>;
}

export const ACP_BACKEND_ID = 'acp';

interface PendingPermission {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly params: RequestPermissionRequest;
  readonly respond: (response: RequestPermissionResponse) => void;
}

interface SessionState {
  readonly live: LiveAcpAgent;
  /** What the agent's file requests are checked against; changed in place as turns go. */
  readonly fs: { workspace: string; permissionMode: PermissionMode; writeApproved: boolean };
  /** The terminals the agent opened (`terminal/*`), as shell runs of the run that asked. */
  readonly terminals: AcpTerminals;
  /** The Cairn run reading the agent now: where a terminal it opens is recorded. */
  run: { readonly turnId: string; readonly runId: string } | null;
  mapper: AcpEventMapper | null;
  pending: PendingPermission | null;
  /** Stop of the current prompt turn, once begun (its cancel, then the kill if the bound passes). */
  stopping: Promise<void> | null;
}

/**
 * Any ACP agent as a native AgentBackend: one agent process per session (its own process group),
 * kept between turns, driving one agent session whose id is checkpointed with the process identity.
 * Every update is numbered per process and applied once. A permission request suspends the run as a
 * Cairn approval card while the agent waits; the answer's run replies to the live request, or, when
 * the host restarted meanwhile, loads the agent session again and tells the agent the answer. Stop
 * sends `session/cancel` and waits within the bound for the agent to end its turn, then kills the group.
 */
export function createAcpBackend(deps: AcpBackendDeps): AcpBackend {
  const bounds: AcpBounds = { ...DEFAULT_ACP_BOUNDS, ...deps.bounds };
  const states = new Map<string, SessionState>();
  const quarantine = new Map<string, LiveAcpAgent>();

  async function retire(sessionId: string, state: SessionState): Promise<void> {
    if (states.get(sessionId) === state) states.delete(sessionId);
    await state.terminals.killAll();
    const gone = await state.live.process.terminate(bounds.killGraceMs, bounds.killConfirmMs);
    if (!gone) {
      deps.logger.warn('An ACP agent could not be confirmed gone; session quarantined', { sessionId, pid: state.live.process.pid });
      quarantine.set(sessionId, state.live);
    }
  }

  function held(sessionId: string): void {
    const old = quarantine.get(sessionId);
    if (old === undefined) return;
    if (!old.process.isGone()) {
      throw new AgentBackendError(
        'agent_quarantined',
        `The previous agent process of this session (pid ${old.process.pid ?? '?'}) could not be confirmed stopped, so no new one starts yet.`,
        'agent_quarantined',
      );
    }
    quarantine.delete(sessionId);
  }

  /** Starts the agent: initialize, then `session/load` of the checkpointed session where the agent can, else `session/new`. */
  async function start(sessionId: string, command: AcpAgentCommand, fs: SessionState['fs']): Promise<{ state: SessionState; fresh: boolean }> {
    const { LiveAcpAgent, readTextFile, writeTextFile } = await loadAcpAgent();
    const terminals = new AcpTerminals(deps.shell.runner, deps.shell.onOutput);
    let holder: SessionState | null = null;
    const known = (): SessionState => {
      if (holder === null) throw new Error('The ACP session is not ready.');
      return holder;
    };
    // The agent's file requests read the session's state as it is at each request (its mode, its approvals).
    const side = {
      readTextFile: (params: ReadTextFileRequest) => readTextFile(fs, params),
      writeTextFile: (params: WriteTextFileRequest) => writeTextFile(fs, params),
      createTerminal: (params: CreateTerminalRequest) => createTerminal(sessionId, known(), params),
      terminalOutput: (terminalId: string) => terminals.output(terminalId),
      waitForTerminalExit: (terminalId: string) => terminals.waitForExit(terminalId),
      killTerminal: (terminalId: string) => terminals.kill(terminalId),
      releaseTerminal: (terminalId: string) => terminals.release(terminalId),
    };
    const live = new LiveAcpAgent(
      deps.newInstanceId(),
      { binary: command.command, args: command.args, env: agentEnv(command), cwd: fs.workspace },
      launchKey(command, fs.workspace),
      side,
    );
    const state: SessionState = { live, fs, terminals, run: null, mapper: null, pending: null, stopping: null };
    holder = state;
    let fresh = false;
    try {
      const info = await live.initialize(deps.cairnVersion, bounds);
      const checkpoint = deps.checkpoints.checkpoint(sessionId);
      const mcpServers = acpMcpServers(deps.mcpServersOf(sessionId), info.agentCapabilities?.mcpCapabilities);
      let modes: SessionModeState | null = null;
      if (checkpoint !== null && info.agentCapabilities?.loadSession === true) {
        live.replaying = true;
        try {
          const loaded = await bounded(
            live.connection.agent.request('session/load', { sessionId: checkpoint.acpSessionId, cwd: fs.workspace, mcpServers }),
            bounds.requestMs,
            'session/load',
          );
          live.sessionId = checkpoint.acpSessionId;
          modes = loaded.modes ?? null;
        } catch (error) {
          deps.logger.warn('The ACP agent could not load its session; starting a new one', { sessionId, error: errorText(error) });
        } finally {
          live.replaying = false;
        }
      }
      if (live.sessionId === null) {
        const created = await bounded(live.connection.agent.request('session/new', { cwd: fs.workspace, mcpServers }), bounds.requestMs, 'session/new');
        live.sessionId = created.sessionId;
        modes = created.modes ?? null;
        fresh = checkpoint !== null;
      }
      live.modes = modes;
      await applyMode(live, fs.permissionMode);
      deps.checkpoints.bind(
        sessionId,
        {
          acpSessionId: live.sessionId,
          instanceId: live.instanceId,
          pid: live.process.pid,
          agentName: info.agentInfo?.name ?? null,
          agentTitle: info.agentInfo?.title ?? null,
          agentVersion: info.agentInfo?.version ?? null,
        },
        deps.now(),
      );
      if (info.agentInfo != null) deps.onAgent(sessionId, { name: info.agentInfo.name, title: info.agentInfo.title ?? null, version: info.agentInfo.version });
    } catch (error) {
      await live.process.terminate(bounds.killGraceMs, bounds.killConfirmMs);
      const tail = live.process.stderrTail();
      throw new AgentBackendError('agent_start_failed', `The ACP agent could not start: ${errorText(error)}${tail === '' ? '' : `\n${tail}`}`, 'agent_start_failed');
    }
    states.set(sessionId, state);
    return { state, fresh };
  }

  /**
   * `terminal/create`: asked of the person as the agent's own permission requests are (a card in Ask,
   * allowed in Full, refused in Explore), then run as a shell run of the run reading the agent.
   */
  async function createTerminal(sessionId: string, state: SessionState, params: CreateTerminalRequest): Promise<CreateTerminalResponse> {
    const { live } = state;
    const command = state.terminals.commandOf(params, state.fs.workspace);
    if ('error' in command) throw new Error(command.error);
    if (live.sessionId === null) throw new Error('no ACP session');
    const answer = await live.askPermission(
      {
        sessionId: live.sessionId,
        toolCall: { toolCallId: command.toolCallId, title: `Run ${command.command}`, kind: 'execute', rawInput: { command: command.command, cwd: command.cwd } },
        options: [
          { optionId: 'allow', name: 'Allow once', kind: 'allow_once' },
          { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
          { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
        ],
      },
      command,
    );
    if (answer.outcome.outcome !== 'selected' || answer.outcome.optionId === 'reject') {
      const reason = typeof answer._meta?.reason === 'string' ? answer._meta.reason : null;
      throw new Error(`Cairn did not run the command: ${reason ?? 'the person or the session’s mode refused it.'}`);
    }
    const run = state.run;
    if (run === null) throw new Error('No Cairn turn is running for this terminal.');
    live.noteTerminal({ kind: 'terminal_started', command });
    const place = { sessionId, turnId: run.turnId, runId: run.runId, workspace: state.fs.workspace };
    const terminalId = state.terminals.start(place, command, params.outputByteLimit, (result) =>
      live.noteTerminal({ kind: 'terminal_exited', toolCallId: command.toolCallId, result }),
    );
    return { terminalId };
  }

  /** Puts the agent in the mode that lets Cairn decide as the session's permission mode says (`session/set_mode`), where the agent offers modes. */
  async function applyMode(live: LiveAcpAgent, permissionMode: PermissionMode): Promise<void> {
    const modeId = agentModeFor(live.modes, permissionMode);
    if (modeId === null || live.sessionId === null) return;
    await bounded(live.connection.agent.request('session/set_mode', { sessionId: live.sessionId, modeId }), bounds.requestMs, 'session/set_mode');
    live.modes = live.modes === null ? null : { ...live.modes, currentModeId: modeId };
  }

  /** Stop, begun once per prompt turn however many ask for it (the abort itself, the reader's end). */
  function stopOnce(sessionId: string, state: SessionState): Promise<void> {
    state.stopping ??= stopTurn(sessionId, state).finally(() => {
      state.stopping = null;
    });
    return state.stopping;
  }

  /** Stop: `session/cancel`, then wait within the bound for the agent's `cancelled`; else kill the group. */
  async function stopTurn(sessionId: string, state: SessionState): Promise<void> {
    const { live } = state;
    await state.terminals.killAll();
    if (!live.prompting) return;
    state.pending?.respond({ outcome: { outcome: 'cancelled' } });
    state.pending = null;
    live.cancel();
    const deadline = AbortSignal.timeout(bounds.cancelMs);
    for (;;) {
      const message = await live.next(deadline);
      if (message === null || message.kind === 'exited') break;
      if (message.kind === 'permission') message.respond({ outcome: { outcome: 'cancelled' } });
      if (message.kind === 'stop' || message.kind === 'prompt_failed') {
        state.mapper = null;
        return;
      }
    }
    deps.logger.warn('The ACP agent did not end its turn after session/cancel; stopping its process', { sessionId });
    await retire(sessionId, state);
  }

  async function* pump(sessionId: string, state: SessionState, signal: AbortSignal): AsyncGenerator<AgentEvent> {
    const { live } = state;
    let ended = false;
    // Stop acts at once, whether or not the runtime reads this stream again.
    const onAbort = () => {
      if (!ended && state.pending === null) void stopOnce(sessionId, state);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      for (;;) {
        const message = await live.next(signal);
        if (message === null) return;
        const mapper = state.mapper;
        switch (message.kind) {
          case 'exited': {
            if (states.get(sessionId) === state) states.delete(sessionId);
            ended = true;
            const how = message.signal === null ? `exit code ${message.code ?? 'unknown'}` : `signal ${message.signal}`;
            const tail = live.process.stderrTail();
            throw new AgentBackendError(
              'agent_process_exited',
              `The ACP agent stopped unexpectedly during the turn (${how}).${tail === '' ? '' : ` Its last output:\n${tail}`}`,
              'agent_process_exited',
            );
          }
          case 'stop':
            ended = true;
            state.mapper = null;
            if (message.usage !== null) yield usageEvent(message.usage, live.info?.agentInfo?.name ?? 'acp-agent');
            endOf(message.stopReason, signal);
            return;
          case 'prompt_failed':
            ended = true;
            state.mapper = null;
            throw new AgentBackendError('provider_error', `The ACP agent failed the turn: ${message.message}`, 'provider_error');
          case 'terminal_started':
            if (mapper !== null) yield* mapper.terminalCall(message.command.toolCallId, ACP_TERMINAL_TOOL, { command: message.command.command, cwd: message.command.cwd });
            continue;
          case 'terminal_exited':
            if (mapper !== null) yield terminalResult(message.toolCallId, message.result);
            continue;
          case 'update': {
            if (mapper === null || message.sessionId !== live.sessionId || !deps.checkpoints.claim(sessionId, live.instanceId, message.seq)) continue;
            if (message.update.sessionUpdate === 'usage_update') deps.onContextMeter(sessionId, contextMeterOf(message.update, live.info?.agentInfo?.name ?? 'acp-agent'));
            for (const event of mapper.map(message.update)) yield event;
            continue;
          }
          case 'permission': {
            if (mapper === null || !deps.checkpoints.claim(sessionId, live.instanceId, message.seq)) {
              message.respond({ outcome: { outcome: 'cancelled' } });
              continue;
            }
            const bridged = message.terminal === undefined ? bridgePermission(message.params, mapper) : terminalPermission(message.terminal);
            const automatic = automaticDecision(state.fs.permissionMode, deps.allowedForSession(sessionId, bridged.toolName));
            if (automatic !== null) {
              state.fs.writeApproved ||= automatic !== 'deny';
              message.respond(
                permissionResponse(message.params.options, automatic, automatic === 'deny' ? 'This Cairn session is in Explore mode: nothing may be changed.' : null),
              );
              continue;
            }
            state.pending = { toolCallId: bridged.toolCallId, toolName: bridged.toolName, params: message.params, respond: message.respond };
            mapper.markRecorded(bridged.toolCallId);
            ended = true;
            yield { type: 'interaction_requested', ...bridged };
            return;
          }
        }
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
      if (!ended && signal.aborted && state.pending === null) await stopOnce(sessionId, state);
    }
  }

  async function* run(input: AgentRunInput, signal: AbortSignal): AsyncGenerator<AgentEvent> {
    const command = deps.resolve(input.connectionId);
    if ('error' in command) throw new AgentBackendError('connection_unavailable', command.error, 'connection_unavailable');
    const session = deps.sessionOf(input.sessionId);
    if (session === null) throw new AgentBackendError('connection_unavailable', 'This session no longer exists.', 'connection_unavailable');
    held(input.sessionId);
    const workspace = session.workspacePath ?? join(deps.dataDir, 'acp', 'work', input.sessionId);
    mkdirSync(workspace, { recursive: true });
    const answer = input.runKind === 'continuation' ? answerOf(input) : null;
    await states.get(input.sessionId)?.stopping;
    let state = states.get(input.sessionId) ?? null;

    if (state?.pending != null && answer !== null && answer.toolCallId === state.pending.toolCallId && !state.live.process.hasExited && state.mapper !== null) {
      // The agent still waits for this answer: reply, and read on in the same prompt turn.
      const pending = state.pending;
      const decision = answer.approved ? (deps.allowedForSession(input.sessionId, pending.toolName) ? 'allow_session' : 'allow_once') : 'deny';
      state.fs.permissionMode = session.permissionMode;
      state.fs.writeApproved ||= answer.approved;
      state.run = { turnId: input.turnId, runId: input.runId };
      if (!answer.approved) state.mapper.markSettled(pending.toolCallId);
      state.pending = null;
      pending.respond(permissionResponse(pending.params.options, decision, answer.reason));
      yield* pump(input.sessionId, state, signal);
      return;
    }

    if (state !== null && (state.pending !== null || state.live.prompting || state.live.launchKey !== launchKey(command, workspace) || state.live.process.hasExited)) {
      await retire(input.sessionId, state);
      held(input.sessionId);
      state = null;
    }
    const fs = { workspace, permissionMode: session.permissionMode, writeApproved: answer?.approved === true };
    let fresh = false;
    if (state === null) ({ state, fresh } = await start(input.sessionId, command, fs));
    else {
      Object.assign(state.fs, fs);
      await applyMode(state.live, fs.permissionMode);
    }
    if (signal.aborted) return;
    state.live.drain();
    state.run = { turnId: input.turnId, runId: input.runId };
    state.mapper = new AcpEventMapper();
    if (fresh)
      yield {
        type: 'reasoning_delta',
        text: 'Cairn: the agent could not reload its earlier session, so a new agent session started; it was given a summary of this conversation.\n',
      };
    state.live.prompt(promptText(input, answer, fresh));
    yield* pump(input.sessionId, state, signal);
  }

  return {
    id: ACP_BACKEND_ID,
    run,
    quarantined: (sessionId) => {
      const old = quarantine.get(sessionId);
      return old !== undefined && !old.process.isGone();
    },
    async releaseWaiting(sessionId) {
      const state = states.get(sessionId);
      if (state?.pending == null) return;
      const pending = state.pending;
      state.pending = null;
      pending.respond({ outcome: { outcome: 'cancelled' } });
      await stopOnce(sessionId, state);
    },
    async shutdown() {
      await Promise.all([...states.entries()].map(([sessionId, state]) => retire(sessionId, state)));
    },
  };
}

/** The header's context meter from the agent's `usage_update`: what its context holds of its window (the agent runs its own context: no breakdown). */
function contextMeterOf(update: { readonly used: number; readonly size: number }, agentName: string): ContextMeter {
  return {
    used: update.used,
    contextWindow: update.size,
    outputReserve: 0,
    windowSource: 'reported',
    breakdown: { system: 0, summary: 0, messages: 0, toolOutput: 0 },
    trimmed: false,
    modelId: agentName,
  };
}

/** The agent's token count for the turn, as Cairn records a model call's usage (the agent is the model; no price is known). */
function usageEvent(usage: AcpTurnUsage, agentName: string): AgentEvent {
  return {
    type: 'usage',
    model: agentName,
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    cachedInputTokens: usage.cachedReadTokens ?? 0,
    reasoningTokens: usage.thoughtTokens ?? 0,
    latencyMs: 0,
    costUsd: null,
  };
}

/** How a prompt turn's stop reason ends the Cairn run: normally, or as a failure of its class. */
function endOf(stopReason: StopReason, signal: AbortSignal): void {
  switch (stopReason) {
    case 'end_turn':
      return;
    case 'cancelled':
      if (signal.aborted) return;
      throw new AgentBackendError('agent_cancelled', 'The ACP agent cancelled the turn on its own.', 'agent_cancelled');
    case 'refusal':
      throw new AgentBackendError('agent_refused', 'The ACP agent refused to continue this request.', 'agent_refused');
    case 'max_tokens':
      throw new AgentBackendError('max_tokens', 'The ACP agent reached its token limit before finishing.', 'max_tokens');
    case 'max_turn_requests':
      throw new AgentBackendError('max_turn_requests', 'The ACP agent reached its limit of model requests for one turn.', 'max_turn_requests');
  }
}

/**
 * The agent mode for a Cairn permission mode, among those the agent offers, or null (it offers none,
 * or is in it already). Cairn answers the agent's permission requests itself (allowing in Full,
 * rejecting in Explore), so the agent is put in the mode where it asks before every change (Claude's
 * `default`, "Manual"); in Explore, in its read-only planning mode (`plan`) where it has one.
 */
export function agentModeFor(modes: SessionModeState | null, permissionMode: PermissionMode): string | null {
  if (modes === null) return null;
  const offered = new Set(modes.availableModes.map((mode) => mode.id));
  const wanted = (permissionMode === 'explore' ? ['plan', 'read-only', 'default', 'ask'] : ['default', 'ask']).find((id) => offered.has(id)) ?? null;
  return wanted === null || wanted === modes.currentModeId ? null : wanted;
}

/** Full mode allows without asking, Explore rejects, a tool allowed for the session is allowed again; else null (ask the person). */
function automaticDecision(mode: PermissionMode, allowedForSession: boolean): 'allow_once' | 'allow_session' | 'deny' | null {
  if (mode === 'full') return 'allow_once';
  if (mode === 'explore') return 'deny';
  return allowedForSession ? 'allow_session' : null;
}

interface PersonAnswer {
  readonly toolCallId: string;
  readonly approved: boolean;
  readonly reason: string | null;
  readonly call: HistoryMessage | null;
}

/** The approval this continuation run carries: approved (`approvedToolCall`), or rejected (the turn's last tool result). */
function answerOf(input: AgentRunInput): PersonAnswer | null {
  const callOf = (toolCallId: string) => [...input.history].reverse().find((message) => message.role === 'tool_call' && message.data?.toolCallId === toolCallId) ?? null;
  if (input.approvedToolCall !== null) return { toolCallId: input.approvedToolCall.toolCallId, approved: true, reason: null, call: callOf(input.approvedToolCall.toolCallId) };
  const last = [...input.history].reverse().find((message) => message.turnId === input.turnId && message.role !== 'reasoning');
  if (last?.role !== 'tool_result' || last.data === null || typeof last.data.toolCallId !== 'string') return null;
  const output = last.data.output;
  const reason = typeof output === 'object' && output !== null && 'reason' in output && typeof output.reason === 'string' ? output.reason : null;
  return { toolCallId: last.data.toolCallId, approved: false, reason, call: callOf(last.data.toolCallId) };
}

/** What the agent is told this turn: the request; how an interrupted attempt or a lost request goes on; a summary for a new agent session. */
function promptText(input: AgentRunInput, answer: PersonAnswer | null, fresh: boolean): string {
  const summary = fresh ? `${summaryOf(input.history.filter((message) => message.turnId !== input.turnId))}\n\n` : '';
  if (answer !== null) {
    const title =
      typeof answer.call?.data?.input === 'object' && answer.call.data.input !== null && 'title' in answer.call.data.input
        ? String(answer.call.data.input.title)
        : 'your tool call';
    const intro = 'Cairn restarted while your permission request waited for the person, so that request is gone. Their answer:';
    return answer.approved
      ? `${summary}${intro} they allowed "${title}". It has not been done yet: do it now and continue.`
      : `${summary}${intro} they rejected "${title}".${answer.reason === null ? '' : ` Their reason: ${answer.reason}`} Do not do it; continue without it.`;
  }
  if (input.resume !== null) {
    return `${summary}Your previous attempt at this request ended early (${input.resume.reason ?? input.resume.previousStatus}). Continue from where it stopped; do not start over or repeat what you already did.\n\nThe request: ${input.text}`;
  }
  return `${summary}${input.text}`;
}

/** Cairn's record of the conversation, for an agent session that starts without it. */
function summaryOf(history: readonly HistoryMessage[]): string {
  const lines = history
    .filter((message) => message.role === 'user' || message.role === 'assistant')
    .slice(-20)
    .map((message) => `${message.role === 'user' ? 'Person' : 'You'}: ${message.text.slice(0, 2000)}`);
  return `(Cairn: your earlier session could not be reloaded. The conversation so far, from Cairn's record:\n${lines.join('\n')}\n)`;
}

function agentEnv(command: AcpAgentCommand): Record<string, string> {
  const inherited: Record<string, string> = {};
  for (const name of ['PATH', 'HOME', 'USER', 'LANG', 'TMPDIR', 'SHELL']) {
    const value = process.env[name];
    if (value !== undefined) inherited[name] = value;
  }
  return { ...inherited, ...command.env };
}

function launchKey(command: AcpAgentCommand, cwd: string): string {
  return JSON.stringify([command.command, command.args, command.env, cwd]);
}
