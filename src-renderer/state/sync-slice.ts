import type { ChangeEvent } from '../../src-shared/events';
import type { SliceCreator } from './app-state';
import { applyChangeEvents } from './reducers/apply-events';

/** Keeping the store in step with the host: batched events, and re-reading snapshots when needed. */
export interface SyncSlice {
  /** Queues a host event; queued events are applied together on the next frame. */
  receiveEvent(event: ChangeEvent): void;
  /** Applies queued events now (before a snapshot replaces what they touch). */
  flushEvents(): void;
  /** Re-reads the session list and the open session. */
  resync(): Promise<void>;
  /** First load: the session list, and the session the address names. */
  initialize(): void;
}

export const createSyncSlice: SliceCreator<SyncSlice> = (set, get, deps) => {
  let buffer: ChangeEvent[] = [];
  let cancelFrame: (() => void) | null = null;

  function flushEvents() {
    cancelFrame?.();
    cancelFrame = null;
    if (buffer.length === 0) return;
    const batch = buffer;
    buffer = [];
    const state = get();
    const record = applyChangeEvents({ sessions: state.sessions, transcripts: state.transcripts, queues: state.queues }, batch);
    if (record === state) return;
    const selectedGone = state.selectedSessionId !== null && record.transcripts[state.selectedSessionId] === undefined
      && batch.some((event) => event.kind === 'session.removed' && event.sessionId === state.selectedSessionId);
    set({
      ...record,
      ...(selectedGone ? { selectedSessionId: null } : {}),
      ...(state.pendingDeleteId !== null && record.sessions.byId[state.pendingDeleteId] === undefined ? { pendingDeleteId: null } : {}),
      ...(state.renamingId !== null && record.sessions.byId[state.renamingId] === undefined ? { renamingId: null } : {}),
    });
    if (selectedGone) deps.location.writeSessionId(null);
    for (const transcript of Object.values(record.transcripts)) {
      if (transcript.stale) void get().refreshSession(transcript.sessionId);
    }
  }

  return {
    receiveEvent(event) {
      buffer.push(event);
      cancelFrame ??= deps.frames(flushEvents);
    },

    flushEvents,

    async resync() {
      flushEvents();
      const selected = get().selectedSessionId;
      await Promise.all([get().loadSessions(), selected === null ? Promise.resolve() : get().refreshSession(selected)]);
    },

    initialize() {
      void get().loadSessions();
      const fromAddress = deps.location.readSessionId();
      if (fromAddress !== null) get().selectSession(fromAddress);
    },
  };
};
