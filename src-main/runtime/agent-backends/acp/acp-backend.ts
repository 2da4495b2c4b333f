import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentEvent, AgentRunInput } from '../../contract/agent-backend';
import { AgentBackendError } from '../../contract/agent-backend';
import {
  applyAgentMode,
  applyAgentOption,
  launchKey,
  startAcpAgent,
  type AgentSessionStart,
  type AgentStartContext,
} from './acp-agent-start';
import { createAcpAgentLifecycle } from './acp-agent-lifecycle';
import type { AcpBackend, AcpBackendDeps, SessionState } from './acp-backend-deps';
import { DEFAULT_ACP_BOUNDS, type AcpBounds } from './acp-bounds';
import { AcpEventMapper } from './acp-event-mapper';
import { pathsOfPermission } from './acp-fs';
import { denialText, permissionResponse } from './acp-permissions';
import { answerOf, promptText } from './acp-prompt-text';
import { createAgentTerminal } from './acp-terminal-create';
import { readAgentTurn } from './acp-turn-reader';

export type { AcpBackend, AcpBackendDeps } from './acp-backend-deps';

export const ACP_BACKEND_ID = 'acp';

/**
 * Any ACP agent as a native AgentBackend: one agent process per session (its own process group),
 * kept between turns, driving one agent session whose id is kept as its resume point with the process identity.
 * Every update is numbered per process and applied once. A permission request suspends the run as a
 * Cairn approval card while the agent waits; the answer's run replies to the live request, or, when
 * the host restarted meanwhile, loads the agent session again and tells the agent the answer. Stop
 * sends `session/cancel` and waits within the bound for the agent to end its turn, then kills the group.
 */
export function createAcpBackend(deps: AcpBackendDeps): AcpBackend {
  const bounds: AcpBounds = { ...DEFAULT_ACP_BOUNDS, ...deps.bounds };
  const agents = createAcpAgentLifecycle(deps, bounds);
  const { states, retire, held, stopOnce } = agents;
  const startContext = ({ sessionId, connectionId }: AgentRunInput): AgentStartContext => ({
    deps,
    connectionId,
    bounds,
    createTerminal: (state, params) => createAgentTerminal(deps, sessionId, state, params),
  });
  const pump = (sessionId: string, state: SessionState, signal: AbortSignal) =>
    readAgentTurn(deps, agents, sessionId, state, signal);

  async function* run(input: AgentRunInput, signal: AbortSignal): AsyncGenerator<AgentEvent> {
    const command = deps.resolve(input.connectionId);
    if ('error' in command)
      throw new AgentBackendError('connection_unavailable', command.error, 'connection_unavailable');
    const session = deps.sessionOf(input.sessionId);
    if (session === null)
      throw new AgentBackendError('connection_unavailable', 'This session no longer exists.', 'connection_unavailable');
    held(input.sessionId);
    const workspace = session.workspacePath ?? join(deps.dataDir, 'acp', 'work', input.sessionId);
    mkdirSync(workspace, { recursive: true });
    const answer = input.runKind === 'continuation' ? answerOf(input) : null;
    await states.get(input.sessionId)?.stopping;
    let state = states.get(input.sessionId) ?? null;

    if (
      state?.pending != null &&
      answer !== null &&
      answer.toolCallId === state.pending.toolCallId &&
      !state.live.process.hasExited &&
      state.mapper !== null
    ) {
      // The agent still waits for this answer: reply, and read on in the same prompt turn.
      const pending = state.pending;
      const decision = answer.approved
        ? deps.allowedForSession(input.sessionId, pending.toolName)
          ? 'allow_session'
          : 'allow_once'
        : 'deny';
      state.fs.permissionMode = session.permissionMode;
      state.fs.writeApproved ||= answer.approved;
      if (answer.approved) state.fs.approvedPaths.push(...pathsOfPermission(pending.params));
      state.run = { turnId: input.turnId, runId: input.runId };
      if (!answer.approved) state.mapper.markSettled(pending.toolCallId);
      state.pending = null;
      // An agent that steers hears the reason in this turn, queued behind the denial (Claude ignores `_meta.reason`).
      if (!answer.approved && answer.reason !== null)
        await state.live
          .steer(denialText(pending.params.toolCall.title ?? 'your tool call', answer.reason), bounds)
          .catch((error: unknown) =>
            deps.logger.warn('The reason for a denial could not be put into the ACP agent’s turn', {
              sessionId: input.sessionId,
              error: String(error),
            }),
          );
      pending.respond(permissionResponse(pending.params.options, decision, answer.reason));
      yield* pump(input.sessionId, state, signal);
      return;
    }

    // A mode change across the wall (Auto <-> Ask, Full, Explore) starts the agent again, in or out of it; session/load resumes its session.
    const walled = deps.agentWalled?.(session.permissionMode) ?? false;
    if (
      state !== null &&
      (state.pending !== null ||
        state.live.prompting ||
        state.live.launchKey !== launchKey(command, workspace, walled) ||
        state.live.process.hasExited)
    ) {
      await retire(input.sessionId, state);
      held(input.sessionId);
      state = null;
    }
    const fs = {
      workspace,
      permissionMode: session.permissionMode,
      writeApproved: answer?.approved === true,
      approvedPaths: [],
    };
    let fresh: AgentSessionStart = 'reloaded';
    let forkRefused: string | null = null;
    if (state === null) {
      const confinement = walled
        ? (deps.confineAgent?.(input.sessionId, input.connectionId, workspace, command) ?? {
            unconfined: true as const,
          })
        : { unconfined: true as const };
      if ('refuse' in confinement)
        throw new AgentBackendError('sandbox_unavailable', confinement.refuse, 'agent_start_failed');
      if (walled && !('sandbox' in confinement))
        throw new AgentBackendError(
          'sandbox_unavailable',
          'This session is in Auto, but its agent could not be put in the sandbox.',
          'agent_start_failed',
        );
      const sandbox = 'sandbox' in confinement ? confinement.sandbox : null;
      ({ state, fresh, forkRefused } = await startAcpAgent(startContext(input), input.sessionId, command, fs, sandbox));
      states.set(input.sessionId, state);
    } else {
      Object.assign(state.fs, fs);
      await applyAgentMode(state.live, fs.permissionMode, bounds, deps.chosenOf(input.sessionId));
    }
    if (signal.aborted) return;
    state.live.drain();
    state.run = { turnId: input.turnId, runId: input.runId };
    state.mapper = new AcpEventMapper();
    // A new agent session for a conversation that already has turns (its earlier agent session lost, or a branch) is given Cairn's summary.
    const earlier = input.history.some((message) => message.turnId !== input.turnId);
    const summarise = fresh === 'lost' || (fresh === 'first' && earlier);
    const notice = startNotice(fresh, forkRefused, summarise);
    if (notice !== null) yield { type: 'reasoning_delta', text: notice };
    state.live.prompt(promptText(input, answer, summarise, fresh === 'lost'));
    yield* pump(input.sessionId, state, signal);
  }

  return {
    id: ACP_BACKEND_ID,
    run,
    quarantined: agents.quarantined,
    async releaseWaiting(sessionId) {
      const state = states.get(sessionId);
      if (state?.pending == null) return;
      const pending = state.pending;
      state.pending = null;
      pending.respond({ outcome: { outcome: 'cancelled' } });
      await stopOnce(sessionId, state);
    },
    async applyChoice(sessionId, selectorId) {
      const state = states.get(sessionId);
      const session = deps.sessionOf(sessionId);
      if (state === undefined || session === null || state.live.process.hasExited) return;
      const chosen = deps.chosenOf(sessionId);
      const value = selectorId === null ? undefined : chosen[selectorId];
      const selector = state.live.selectors().find((candidate) => candidate.id === selectorId);
      if (selector?.kind === 'option' && value !== undefined && value !== selector.current)
        await applyAgentOption(state.live, selector.id, value, bounds);
      else await applyAgentMode(state.live, session.permissionMode, bounds, chosen);
    },
    async shutdown() {
      await Promise.all([...states.entries()].map(([sessionId, state]) => retire(sessionId, state)));
    },
  };
}

/** What the transcript says of how the agent session of this turn came about, when it is not simply its own. */
function startNotice(fresh: AgentSessionStart, forkRefused: string | null, summarised: boolean): string | null {
  if (fresh === 'forked')
    return 'Cairn: this branch goes on in a fork of the agent’s own session (session/fork), made at the agent’s last answer before the branch point.\n';
  if (!summarised) return null;
  if (fresh === 'lost')
    return 'Cairn: the agent could not reload its earlier session, so a new agent session started; it was given a summary of this conversation.\n';
  if (forkRefused !== null)
    return `Cairn: this branch was not forked from the agent’s session: ${forkRefused}. So a new agent session started, given a summary of the conversation before the branch point.\n`;
  return 'Cairn: this conversation is new to the agent (a new agent session), so it was given a summary of it.\n';
}
