import type { AgentEvent } from '../../contract/agent-backend';
import { AgentBackendError } from '../../contract/agent-backend';
import { isContextCompaction } from './codex-compaction';
import { declineResponse } from './codex-requests';
import type { CodexContext, SessionState } from './codex-session-state';
import { contextMeterOf } from './context-usage';
import { goalUpdateOf } from './goal-mirror';
import { bridgeRequest } from './interaction-bridge';
import { validateDelegationAnswer } from './structured-answer';

/** What a command Codex left open is told when its turn ends. */
const COMMAND_LEFT_OPEN: Readonly<Record<'completed' | 'interrupted' | 'failed', string>> = {
  completed: 'Codex ended the turn without saying how this command ended.',
  interrupted: 'Stopped with its Codex turn.',
  failed: 'Its Codex turn failed before the command finished.',
};

/** How a command Codex left open shows in the turn's result. */
const COMMAND_STATUS_LEFT_OPEN: Readonly<Record<'completed' | 'interrupted' | 'failed', string>> = {
  completed: 'running',
  interrupted: 'stopped',
  failed: 'failed',
};

/**
 * Reading a Codex turn into a Cairn run: every message applied once, requests suspended as
 * interactions, the turn's result recorded when it ends, and Stop turned into an interrupt that is
 * confirmed within the bound (else the app-server is ended).
 */
export function createTurnReader(ctx: CodexContext) {
  const { deps, bounds, codexStore } = ctx;

  /** The structured result of the Codex turn that just ended. */
  function recordResult(
    state: SessionState,
    status: 'completed' | 'interrupted' | 'failed',
    errorMessage: string | null,
  ): void {
    const { mapper, run } = state;
    if (status === 'completed' && mapper !== null && state.commands !== null) {
      // Codex ended the turn with commands still running (background / yielded): they stay live shell runs.
      const left = state.commands.detach().flatMap(({ itemId, shellRunId }) => {
        const item = mapper.itemOf(itemId);
        return item?.type === 'commandExecution' ? [{ item, shellRunId }] : [];
      });
      state.background.adopt(mapper.turnId, left, state.processes?.current() ?? []);
    }
    state.commands?.closeAll(COMMAND_LEFT_OPEN[status]);
    state.commands = null;
    state.processes = null;
    if (mapper === null || run === null) return;
    mapper.closeOpenCommands(COMMAND_STATUS_LEFT_OPEN[status]);
    const { facts } = mapper;
    codexStore.recordTurnResult({
      codexTurnId: mapper.turnId,
      ...run,
      status,
      finalMessage: facts.finalMessage,
      filesChanged: [...facts.filesChanged],
      commands: facts.commands,
      inputTokens: facts.inputTokens,
      outputTokens: facts.outputTokens,
      errorMessage,
      structured: state.structured && status === 'completed' ? validateDelegationAnswer(facts.finalMessage) : null,
      createdAt: deps.now(),
    });
  }

  /**
   * Stop: interrupt the Codex turn and wait, within the bound, for Codex to confirm; else kill. Codex
   * confirms the interrupt with its commands still running, so the turn's command processes are
   * ended too (found before the app-server could be ended, while they are still its children); if
   * they cannot be told or do not end, the app-server is ended with them.
   */
  async function stopTurn(sessionId: string, state: SessionState): Promise<void> {
    const { live } = state;
    const turnId = live.activeTurnId;
    if (turnId === null || live.threadId === null) return;
    const { processes } = state;
    const running = processes?.current() ?? [];
    const endCommands = async () => {
      if (processes === null) return false;
      return processes.stop([...running, ...processes.current()], bounds.killGraceMs, bounds.killConfirmMs);
    };
    const deadline = AbortSignal.timeout(bounds.interruptMs);
    try {
      await live.rpc.request('turn/interrupt', { threadId: live.threadId, turnId }, bounds.interruptMs);
      for (;;) {
        const message = await live.next(deadline);
        if (message === null || message.kind === 'exited') break;
        if (
          message.kind === 'notification' &&
          message.value.method === 'turn/completed' &&
          JSON.stringify(message.value.params).includes(turnId)
        ) {
          const ended = await endCommands();
          recordResult(state, 'interrupted', null);
          live.activeTurnId = null;
          state.mapper = null;
          live.drain();
          if (!ended) await ctx.retire(sessionId, state);
          return;
        }
      }
    } catch (error) {
      deps.logger.warn('Codex did not confirm the interrupt', { sessionId, error: String(error) });
    }
    await endCommands();
    recordResult(state, 'interrupted', 'Codex did not confirm the interrupt; its app-server was stopped.');
    await ctx.retire(sessionId, state);
  }

  return async function* pump(sessionId: string, state: SessionState, signal: AbortSignal): AsyncGenerator<AgentEvent> {
    const { live } = state;
    let ended = false;
    try {
      for (;;) {
        const message = await live.next(signal);
        if (message === null) return;
        if (message.kind === 'exited') {
          if (ctx.states.get(sessionId) === state) ctx.states.delete(sessionId);
          ended = true;
          const how = message.signal === null ? `exit code ${message.code ?? 'unknown'}` : `signal ${message.signal}`;
          const tail = live.process.stderrTail();
          const why = `Codex stopped unexpectedly during the turn (${how}).${tail === '' ? '' : ` Its last output:\n${tail}`}`;
          recordResult(state, 'failed', why);
          throw new AgentBackendError('agent_process_exited', why, 'agent_process_exited');
        }
        // Applied once per (instance, sequence); a replaced instance's late events are discarded.
        if (!codexStore.claim(sessionId, live.instanceId, message.value.seq)) continue;
        const mapper = state.mapper;
        if (mapper === null) continue;
        if (message.kind === 'request') {
          const bridged = bridgeRequest(message.value.method, message.value.params, mapper, message.value.id);
          if (bridged === null) {
            deps.logger.info('Declined a Codex request Cairn does not show', {
              sessionId,
              method: message.value.method,
            });
            live.rpc.respond(message.value.id, declineResponse(message.value.method));
            continue;
          }
          state.pending = {
            requestId: message.value.id,
            method: message.value.method,
            params: message.value.params,
            toolCallId: bridged.toolCallId,
            toolName: bridged.toolName,
          };
          mapper.markRecorded(bridged.toolCallId);
          ended = true;
          yield { type: 'interaction_requested', ...bridged };
          return;
        }
        state.commands?.observe(message.value.method, message.value.params);
        const meter = contextMeterOf(message.value.method, message.value.params, state.model);
        if (meter !== null) deps.onContextMeter(sessionId, meter);
        if (state.run !== null && isContextCompaction(message.value.method, message.value.params))
          deps.onContextCompacted?.(state.run);
        const goalUpdate = goalUpdateOf(message.value.method, message.value.params);
        if (goalUpdate !== null && state.goalId !== null) deps.onGoalUpdate(sessionId, state.goalId, goalUpdate);
        const { events, end } = mapper.map(message.value.method, message.value.params);
        for (const event of events) yield event;
        if (end !== null) {
          ended = true;
          recordResult(state, end.status, end.status === 'failed' ? end.message : null);
          live.activeTurnId = null;
          state.mapper = null;
          if (end.status === 'failed')
            throw new AgentBackendError('provider_error', `Codex: ${end.message}`, 'provider_error');
          return;
        }
      }
    } finally {
      if (!ended && signal.aborted && state.pending === null) await stopTurn(sessionId, state);
    }
  };
}
