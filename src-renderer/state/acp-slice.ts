import type { AcpAgentIdentity, AcpSessionOffers } from '../../src-shared/acp-model';
import type { ChangeEvent } from '../../src-shared/events';
import type { SliceCreator } from './app-state';

export type AcpAgents = Readonly<Record<string, AcpAgentIdentity>>;
export type AcpOffersBySession = Readonly<Record<string, AcpSessionOffers>>;

/**
 * The agent each ACP session runs, as it named itself, and what it offers there (its commands, modes
 * and config options): read on open, then kept by `acp.agent.changed` and `acp.offers.changed`.
 */
export interface AcpSlice {
  readonly acpAgents: AcpAgents;
  readonly acpOffers: AcpOffersBySession;
  loadAcpAgent(sessionId: string): Promise<void>;
  /** Chooses among what the session's agent offers (its mode, model, …); the host's refusal as words, else null. */
  chooseAcpOption(sessionId: string, selectorId: string, value: string): Promise<string | null>;
  noteAcpEvents(batch: readonly ChangeEvent[]): void;
}

function without<T>(state: Readonly<Record<string, T>>, sessionId: string): Readonly<Record<string, T>> {
  if (state[sessionId] === undefined) return state;
  const { [sessionId]: _gone, ...rest } = state;
  return rest;
}

/** Applies a batch of events: the newest name of each session's agent wins; a removed session's goes. */
export function reduceAcpAgents(state: AcpAgents, batch: readonly ChangeEvent[]): AcpAgents {
  let next = state;
  for (const event of batch) {
    if (event.kind === 'acp.agent.changed') next = { ...next, [event.sessionId]: event.agent };
    else if (event.kind === 'session.removed') next = without(next, event.sessionId);
  }
  return next;
}

/** Applies a batch of events: what each session's agent offers, as last announced; a removed session's goes. */
export function reduceAcpOffers(state: AcpOffersBySession, batch: readonly ChangeEvent[]): AcpOffersBySession {
  let next = state;
  for (const event of batch) {
    if (event.kind === 'acp.offers.changed') next = { ...next, [event.sessionId]: event.offers };
    else if (event.kind === 'session.removed') next = without(next, event.sessionId);
  }
  return next;
}

export const createAcpSlice: SliceCreator<AcpSlice> = (set, get, deps) => ({
  acpAgents: {},
  acpOffers: {},

  async loadAcpAgent(sessionId) {
    const [named, offered] = await Promise.all([
      deps.link.invoke('acp.agent', { sessionId }),
      deps.link.invoke('acp.offers', { sessionId }),
    ]);
    // An event may have brought newer news while the reads were out: keep that.
    if (named.ok && named.result.agent !== null && get().acpAgents[sessionId] === undefined) {
      const agent = named.result.agent;
      set((state) => ({ acpAgents: { ...state.acpAgents, [sessionId]: agent } }));
    }
    if (offered.ok && get().acpOffers[sessionId] === undefined) {
      const offers = offered.result.offers;
      set((state) => ({ acpOffers: { ...state.acpOffers, [sessionId]: offers } }));
    }
  },

  async chooseAcpOption(sessionId, selectorId, value) {
    const outcome = await deps.link.invoke('acp.choose', { sessionId, selectorId, value });
    if (!outcome.ok) return outcome.error.message;
    const offers = outcome.result.offers;
    set((state) => ({ acpOffers: { ...state.acpOffers, [sessionId]: offers } }));
    return null;
  },

  noteAcpEvents(batch) {
    const agents = reduceAcpAgents(get().acpAgents, batch);
    const offers = reduceAcpOffers(get().acpOffers, batch);
    if (agents !== get().acpAgents || offers !== get().acpOffers) set({ acpAgents: agents, acpOffers: offers });
  },
});
