import type { ContextMeter } from '../../src-shared/context-model';
import type { ChangeEvent } from '../../src-shared/events';
import type { SliceCreator } from './app-state';

export type ContextMeters = Readonly<Record<string, ContextMeter>>;

/** How full each session's context is (the header's meter): read on open, then kept by `context.changed`. */
export interface ContextSlice {
  readonly contextMeters: ContextMeters;
  loadContextMeter(sessionId: string): Promise<void>;
  noteContextEvents(batch: readonly ChangeEvent[]): void;
}

/** Applies a batch of events to the meters: the newest meter of a session wins; a removed session's goes. */
export function reduceContextMeters(state: ContextMeters, batch: readonly ChangeEvent[]): ContextMeters {
  let next = state;
  for (const event of batch) {
    if (event.kind === 'context.changed') next = { ...next, [event.sessionId]: event.meter };
    else if (event.kind === 'session.removed' && next[event.sessionId] !== undefined) {
      const { [event.sessionId]: _gone, ...rest } = next;
      next = rest;
    }
  }
  return next;
}

export const createContextSlice: SliceCreator<ContextSlice> = (set, get, deps) => ({
  contextMeters: {},

  async loadContextMeter(sessionId) {
    const outcome = await deps.link.invoke('context.meter', { sessionId });
    if (!outcome.ok || outcome.result.meter === null) return;
    const meter = outcome.result.meter;
    // An event may have brought a newer meter while the read was out: keep that one.
    if (get().contextMeters[sessionId] === undefined) set((state) => ({ contextMeters: { ...state.contextMeters, [sessionId]: meter } }));
  },

  noteContextEvents(batch) {
    const next = reduceContextMeters(get().contextMeters, batch);
    if (next !== get().contextMeters) set({ contextMeters: next });
  },
});
