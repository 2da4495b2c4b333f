import { AgentBackendError } from '../../contract/agent-backend';
import type { AcpBackendDeps, SessionState } from './acp-backend-deps';
import type { AcpBounds } from './acp-bounds';
import type { LiveAcpAgent } from './live-acp-agent';

/**
 * Which agent process each session has, and how one ends: Stop of a prompt turn (`session/cancel`,
 * then the kill if the bound passes), and retiring a process — one not confirmed gone quarantines its
 * session, so no new agent starts beside it.
 */
export interface AcpAgentLifecycle {
  readonly states: Map<string, SessionState>;
  /** Kills the session's terminals and agent process group; quarantines the session if it outlives the bound. */
  retire(sessionId: string, state: SessionState): Promise<void>;
  /** Throws `agent_quarantined` while the session's previous agent process may still run. */
  held(sessionId: string): void;
  quarantined(sessionId: string): boolean;
  /** Stop, begun once per prompt turn however many ask for it (the abort itself, the reader's end). */
  stopOnce(sessionId: string, state: SessionState): Promise<void>;
}

export function createAcpAgentLifecycle(deps: AcpBackendDeps, bounds: AcpBounds): AcpAgentLifecycle {
  const states = new Map<string, SessionState>();
  const quarantine = new Map<string, LiveAcpAgent>();

  async function retire(sessionId: string, state: SessionState): Promise<void> {
    if (states.get(sessionId) === state) states.delete(sessionId);
    await state.terminals.killAll();
    const gone = await state.live.process.terminate(bounds.killGraceMs, bounds.killConfirmMs);
    if (!gone) {
      deps.logger.warn('An ACP agent could not be confirmed gone; session quarantined', {
        sessionId,
        pid: state.live.process.pid,
      });
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

  return {
    states,
    retire,
    held,
    quarantined: (sessionId) => {
      const old = quarantine.get(sessionId);
      return old !== undefined && !old.process.isGone();
    },
    stopOnce,
  };
}
