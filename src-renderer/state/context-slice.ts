import type { CompactionSettings } from '../../src-shared/compaction-model';
import type { ContextMeter, ModelWindowOverride } from '../../src-shared/context-model';
import type { ChangeEvent } from '../../src-shared/events';
import type { SliceCreator } from './app-state';

export type ContextMeters = Readonly<Record<string, ContextMeter>>;

/** How full each session's context is (the header's meter): read on open, then kept by `context.changed`. */
export interface ContextSlice {
  readonly contextMeters: ContextMeters;
  loadContextMeter(sessionId: string): Promise<void>;
  noteContextEvents(batch: readonly ChangeEvent[]): void;
  /** The windows set per connection and model in Settings, with their revision; null until read. */
  readonly modelWindows: { readonly revision: number; readonly overrides: readonly ModelWindowOverride[] } | null;
  loadModelWindows(): Promise<void>;
  /** Sets (or with null clears) a model's window; answers what went wrong, if anything, for the person. */
  setModelWindow(
    connectionId: string,
    modelId: string,
    window: { contextWindow: number; outputReserve: number } | null,
  ): Promise<string | null>;
  /** "Compact now": summarises the session's conversation so far (a turn of its own). */
  compactSession(sessionId: string): Promise<void>;
  /** At what share of the window older turns are summarised (every connection); null until read. */
  readonly compactionSettings: CompactionSettings | null;
  loadCompactionSettings(): Promise<void>;
  /** Sets the threshold (0.3–0.95); answers what went wrong, if anything, for the person. */
  setCompactionThreshold(threshold: number): Promise<string | null>;
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
  modelWindows: null,
  compactionSettings: null,

  async loadCompactionSettings() {
    const outcome = await deps.link.invoke('context.compaction.get', {});
    if (outcome.ok) set({ compactionSettings: outcome.result });
  },

  async setCompactionThreshold(threshold) {
    const expectedRevision = get().compactionSettings?.revision;
    const outcome = await deps.link.invoke('context.compaction.set', {
      threshold,
      ...(expectedRevision === undefined ? {} : { expectedRevision }),
    });
    if (outcome.ok) {
      set({ compactionSettings: outcome.result });
      return null;
    }
    if (outcome.error.code === 'revision_conflict') void get().loadCompactionSettings();
    return outcome.error.message;
  },

  async loadModelWindows() {
    const outcome = await deps.link.invoke('context.windows.get', {});
    if (outcome.ok) set({ modelWindows: outcome.result });
  },

  async setModelWindow(connectionId, modelId, window) {
    const expectedRevision = get().modelWindows?.revision;
    const outcome = await deps.link.invoke('context.windows.set', {
      connectionId,
      modelId,
      window,
      ...(expectedRevision === undefined ? {} : { expectedRevision }),
    });
    if (outcome.ok) {
      set({ modelWindows: outcome.result });
      return null;
    }
    if (outcome.error.code === 'revision_conflict') void get().loadModelWindows();
    return outcome.error.message;
  },

  async loadContextMeter(sessionId) {
    const outcome = await deps.link.invoke('context.meter', { sessionId });
    if (!outcome.ok || outcome.result.meter === null) return;
    const meter = outcome.result.meter;
    // An event may have brought a newer meter while the read was out: keep that one.
    if (get().contextMeters[sessionId] === undefined)
      set((state) => ({ contextMeters: { ...state.contextMeters, [sessionId]: meter } }));
  },

  async compactSession(sessionId) {
    const outcome = await deps.link.invoke('session.compact', { sessionId });
    if (!outcome.ok) get().reportFailure(outcome.error);
  },

  noteContextEvents(batch) {
    const next = reduceContextMeters(get().contextMeters, batch);
    if (next !== get().contextMeters) set({ contextMeters: next });
  },
});
