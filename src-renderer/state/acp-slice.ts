import type { AcpAgentIdentity } from '../../src-shared/acp-model';
import type { ChangeEvent } from '../../src-shared/events';
import type { SliceCreator } from './app-state';

export type AcpAgents = Readonly<Record<string, AcpAgentIdentity>>;

/** The agent each ACP session runs, as it named itself: read on open, then kept by `acp.agent.changed`. */
export interface AcpSlice {
  readonly acpAgents: AcpAgents;
  loadAcpAgent(sessionId: string): Promise<void>;
  noteAcpEvents(batch: readonly ChangeEvent[]): void;
}

/** Applies a batch of events: the newest name of each session's agent wins; a removed session's goes. */
export function reduceAcpAgents(state: AcpAgents, batch: readonly ChangeEvent[]): AcpAgents {
  let next = state;
  for (const event of batch) {
    if (event.kind === 'acp.agent.changed') next = { ...next, [event.sessionId]: event.agent };
    else if (event.kind === 'session.removed' && next[event.sessionId] !== undefined) {
      const { [event.sessionId]: _gone, ...rest } = next;
      next = rest;
    }
  }
  return next;
}

export const createAcpSlice: SliceCreator<AcpSlice> = (set, get, deps) => ({
  acpAgents: {},

  async loadAcpAgent(sessionId) {
    const outcome = await deps.link.invoke('acp.agent', { sessionId });
    if (!outcome.ok || outcome.result.agent === null) return;
    const agent = outcome.result.agent;
    // An event may have brought a newer name while the read was out: keep that one.
    if (get().acpAgents[sessionId] === undefined)
      set((state) => ({ acpAgents: { ...state.acpAgents, [sessionId]: agent } }));
  },

  noteAcpEvents(batch) {
    const next = reduceAcpAgents(get().acpAgents, batch);
    if (next !== get().acpAgents) set({ acpAgents: next });
  },
});
