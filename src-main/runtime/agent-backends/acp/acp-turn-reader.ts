import type { AgentEvent } from '../../contract/agent-backend';
import { AgentBackendError } from '../../contract/agent-backend';
import type { AcpAgentLifecycle } from './acp-agent-lifecycle';
import type { AcpBackendDeps, SessionState } from './acp-backend-deps';
import { authRequiredError } from './acp-agent-start';
import { bridgePermission, permissionResponse } from './acp-permissions';
import { ACP_TERMINAL_TOOL, terminalPermission, terminalResult } from './acp-terminals';
import { automaticDecision, contextMeterOf, endOf, usageEvent } from './acp-turn-policy';

/**
 * Reads the agent's prompt turn as Cairn events: updates claimed once per process, terminals as tool
 * calls, a permission decided without asking or suspended as an approval card (the stream then ends,
 * the agent still waiting), and the turn's end, failure or the process's exit. Stop acts at once on abort.
 */
export async function* readAgentTurn(
  deps: AcpBackendDeps,
  agents: AcpAgentLifecycle,
  sessionId: string,
  state: SessionState,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent> {
  const { live } = state;
  let ended = false;
  // Stop acts at once, whether or not the runtime reads this stream again.
  const onAbort = () => {
    if (!ended && state.pending === null) void agents.stopOnce(sessionId, state);
  };
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      const message = await live.next(signal);
      if (message === null) return;
      const mapper = state.mapper;
      switch (message.kind) {
        case 'exited': {
          if (agents.states.get(sessionId) === state) agents.states.delete(sessionId);
          ended = true;
          const how = message.signal === null ? `exit code ${message.code ?? 'unknown'}` : `signal ${message.signal}`;
          const tail = live.process.stderrTail();
          throw new AgentBackendError(
            'agent_process_exited',
            `The ACP agent stopped unexpectedly during the turn (${how}).${tail === '' ? '' : ` Its last output:\n${tail}`}`,
            'agent_process_exited',
          );
        }
        case 'stop': {
          ended = true;
          state.mapper = null;
          const usage = usageEvent(message.usage, live.takeCost(), live.info?.agentInfo?.name ?? 'acp-agent');
          if (usage !== null) yield usage;
          endOf(message.stopReason, signal);
          return;
        }
        case 'prompt_failed':
          ended = true;
          state.mapper = null;
          if (message.authRequired) throw authRequiredError(live, new Error(message.message));
          throw new AgentBackendError(
            'provider_error',
            `The ACP agent failed the turn: ${message.message}`,
            'provider_error',
          );
        case 'terminal_started':
          if (mapper !== null)
            yield* mapper.terminalCall(message.command.toolCallId, ACP_TERMINAL_TOOL, {
              command: message.command.command,
              cwd: message.command.cwd,
            });
          continue;
        case 'terminal_exited':
          if (mapper !== null) yield terminalResult(message.toolCallId, message.result);
          continue;
        case 'update': {
          if (
            mapper === null ||
            message.sessionId !== live.sessionId ||
            !deps.resumePoints.claim(sessionId, live.instanceId, message.seq)
          )
            continue;
          if (message.update.sessionUpdate === 'usage_update') {
            deps.onContextMeter(sessionId, contextMeterOf(message.update, live.info?.agentInfo?.name ?? 'acp-agent'));
            live.noteCost(message.update.cost);
          }
          for (const event of mapper.map(message.update)) yield event;
          continue;
        }
        case 'permission': {
          if (mapper === null || !deps.resumePoints.claim(sessionId, live.instanceId, message.seq)) {
            message.respond({ outcome: { outcome: 'cancelled' } });
            continue;
          }
          const bridged =
            message.terminal === undefined
              ? bridgePermission(message.params, mapper, live.steers())
              : terminalPermission(message.terminal);
          const automatic = automaticDecision(
            state.fs.permissionMode,
            deps.allowedForSession(sessionId, bridged.toolName),
            state.walled,
          );
          if (automatic !== null) {
            state.fs.writeApproved ||= automatic !== 'deny';
            message.respond(
              permissionResponse(
                message.params.options,
                automatic,
                automatic === 'deny' ? 'This Cairn session is in Explore mode: nothing may be changed.' : null,
              ),
            );
            continue;
          }
          state.pending = {
            toolCallId: bridged.toolCallId,
            toolName: bridged.toolName,
            params: message.params,
            respond: message.respond,
          };
          mapper.markRecorded(bridged.toolCallId);
          ended = true;
          yield { type: 'interaction_requested', ...bridged };
          return;
        }
      }
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    if (!ended && signal.aborted && state.pending === null) await agents.stopOnce(sessionId, state);
  }
}
