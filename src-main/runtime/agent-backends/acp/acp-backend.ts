import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CreateTerminalRequest, CreateTerminalResponse } from '@agentclientprotocol/sdk';
import type { AgentEvent, AgentRunInput } from '../agent-backend';
import { AgentBackendError } from '../agent-backend';
import { applyAgentMode, launchKey, startAcpAgent, type AgentStartContext } from './acp-agent-start';
import type { AcpBackend, AcpBackendDeps, SessionState } from './acp-backend-deps';
import { DEFAULT_ACP_BOUNDS, type AcpBounds } from './acp-bounds';
import { AcpEventMapper } from './acp-event-mapper';
import { bridgePermission, permissionResponse } from './acp-permissions';
import { answerOf, promptText } from './acp-prompt-text';
import { ACP_TERMINAL_TOOL, terminalPermission, terminalResult } from './acp-terminals';
import { automaticDecision, contextMeterOf, endOf, usageEvent } from './acp-turn-policy';
import type { LiveAcpAgent } from './live-acp-agent';

export type { AcpBackend, AcpBackendDeps } from './acp-backend-deps';

export const ACP_BACKEND_ID = 'acp';

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
  const startContext = (sessionId: string): AgentStartContext => ({ deps, bounds, createTerminal: (state, params) => createTerminal(sessionId, state, params) });

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

  /**
   * `terminal/create`: asked of the person as the agent's own permission requests are (a card in Ask,
   * allowed in Full, refused in Explore), then run as a shell run of the run reading the agent.
   */
  async function createTerminal(sessionId: string, state: SessionState, params: CreateTerminalRequest): Promise<CreateTerminalResponse> {
    const { live } = state;
    const command = state.terminals.commandOf(params, state.fs.workspace);
    if ('error' in command) throw new Error(command.error);
    if (live.sessionId === null) throw new Error('no ACP session');
    // A network block of the terminal goes to the turn reading the agent now, as its tool call's card.
    const call = state.run === null ? undefined : { turnId: state.run.turnId, runId: state.run.runId, toolCallId: command.toolCallId };
    const confinement = deps.shell.confine?.(sessionId, command.cwd, call) ?? { unconfined: true };
    if ('refuse' in confinement) throw new Error(confinement.refuse);
    const sandbox = 'sandbox' in confinement ? confinement.sandbox : null;
    // Auto: a terminal inside the sandbox runs unasked, as run_shell's commands do.
    const unasked = sandbox !== null && state.fs.permissionMode === 'auto';
    const answer = unasked
      ? { outcome: { outcome: 'selected' as const, optionId: 'allow' } }
      : await live.askPermission(
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
      sandbox?.dispose();
      const meta = '_meta' in answer ? answer._meta : undefined;
      const reason = typeof meta?.reason === 'string' ? meta.reason : null;
      throw new Error(`Cairn did not run the command: ${reason ?? 'the person or the session’s mode refused it.'}`);
    }
    const run = state.run;
    if (run === null) {
      sandbox?.dispose();
      throw new Error('No Cairn turn is running for this terminal.');
    }
    live.noteTerminal({ kind: 'terminal_started', command });
    const place = { sessionId, turnId: run.turnId, runId: run.runId, workspace: state.fs.workspace };
    const terminalId = state.terminals.start(
      place,
      command,
      params.outputByteLimit,
      (result) => live.noteTerminal({ kind: 'terminal_exited', toolCallId: command.toolCallId, result }),
      sandbox,
    );
    return { terminalId };
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
            const automatic = automaticDecision(state.fs.permissionMode, deps.allowedForSession(sessionId, bridged.toolName), state.walled);
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

    // A mode change across the wall (Auto <-> Ask, Full, Explore) starts the agent again, in or out of it; session/load resumes its session.
    const walled = deps.agentWalled?.(session.permissionMode) ?? false;
    if (state !== null && (state.pending !== null || state.live.prompting || state.live.launchKey !== launchKey(command, workspace, walled) || state.live.process.hasExited)) {
      await retire(input.sessionId, state);
      held(input.sessionId);
      state = null;
    }
    const fs = { workspace, permissionMode: session.permissionMode, writeApproved: answer?.approved === true };
    let fresh = false;
    if (state === null) {
      const confinement = walled ? (deps.confineAgent?.(input.sessionId, input.connectionId, workspace, command) ?? { unconfined: true as const }) : { unconfined: true as const };
      if ('refuse' in confinement) throw new AgentBackendError('sandbox_unavailable', confinement.refuse, 'agent_start_failed');
      if (walled && !('sandbox' in confinement))
        throw new AgentBackendError('sandbox_unavailable', 'This session is in Auto, but its agent could not be put in the sandbox.', 'agent_start_failed');
      const sandbox = 'sandbox' in confinement ? confinement.sandbox : null;
      ({ state, fresh } = await startAcpAgent(startContext(input.sessionId), input.sessionId, command, fs, sandbox));
      states.set(input.sessionId, state);
    } else {
      Object.assign(state.fs, fs);
      await applyAgentMode(state.live, fs.permissionMode, bounds);
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
