import type { ChangeEvent } from '../../src-shared/events';
import { isActiveStatus } from '../../src-shared/model';
import type { SliceCreator } from './app-state';
import { applyChangeEvents } from './reducers/apply-events';
import { createSyncAnnouncements } from './sync-announcements';

/** Host notices that are news the person asked for, shown as information rather than as a failure. */
const INFO_NOTICES: ReadonlySet<string> = new Set(['automation_finished', 'automation_waiting', 'automation_reminder']);

/** Keeping the store in step with the host: batched events, and re-reading snapshots when needed. */
export interface SyncSlice {
  /** Queues a host event; queued events are applied together on the next frame. */
  receiveEvent(event: ChangeEvent): void;
  /** Applies queued events now (before a snapshot replaces what they touch). */
  flushEvents(): void;
  /** Re-reads the session list, the open session, the connections, what waits for the person and the goals. */
  resync(): Promise<void>;
  /** First load: the session list, the connections, pending interactions, and the session the address names. */
  initialize(): void;
}

export const createSyncSlice: SliceCreator<SyncSlice> = (set, get, deps) => {
  let buffer: ChangeEvent[] = [];
  let cancelFrame: (() => void) | null = null;
  const announce = createSyncAnnouncements(get, deps);

  function flushEvents() {
    cancelFrame?.();
    cancelFrame = null;
    if (buffer.length === 0) return;
    const batch = buffer;
    buffer = [];
    const state = get();
    const current = {
      sessions: state.sessions,
      transcripts: state.transcripts,
      queues: state.queues,
      interactions: state.interactions,
      goals: state.goals,
      shell: state.shell,
      runProgress: state.runProgress,
    };
    const record = applyChangeEvents(current, batch);
    if (record !== current) {
      const selectedGone =
        state.selectedSessionId !== null &&
        record.transcripts[state.selectedSessionId] === undefined &&
        batch.some((event) => event.kind === 'session.removed' && event.sessionId === state.selectedSessionId);
      set({
        ...record,
        ...(selectedGone ? { selectedSessionId: null } : {}),
        ...(state.pendingDeleteId !== null && record.sessions.byId[state.pendingDeleteId] === undefined
          ? { pendingDeleteId: null }
          : {}),
        ...(state.renamingId !== null && record.sessions.byId[state.renamingId] === undefined
          ? { renamingId: null }
          : {}),
      });
      if (selectedGone) deps.location.writeSessionId(null);
      for (const transcript of Object.values(record.transcripts)) {
        if (transcript.stale) void get().refreshSession(transcript.sessionId);
      }
      announce.newWaits(state, get());
    }
    followUp(batch);
  }

  /** What events ask for beyond the record: a new catalog to read, the open session's totals. */
  function followUp(batch: readonly ChangeEvent[]) {
    const state = get();
    const newCatalog = batch.some(
      (event) => event.kind === 'connections.changed' && event.catalogRevision > state.catalog.catalogRevision,
    );
    if (newCatalog) void state.loadCatalog();
    const selected = state.selectedSessionId;
    const turnSettled = batch.some(
      (event) =>
        event.kind === 'turn.changed' &&
        event.turn.sessionId === selected &&
        event.turn.usage !== null &&
        !isActiveStatus(event.turn.status),
    );
    if (selected !== null && turnSettled) void state.loadSessionUsage(selected);
    state.noteWorkhubEvents(batch);
    state.noteMemoryEvents(batch);
    state.noteBranchEvents(batch);
    state.noteMcpEvents(batch);
    state.noteContextEvents(batch);
    state.noteAgentEvents(batch);
    state.noteCodexEvents(batch);
    state.noteAcpInstallEvents(batch);
    state.noteAcpEvents(batch);
    state.noteChangesEvents(batch);
    state.noteWorktreeEvents(batch);
    state.noteComposerEvents(batch);
    for (const event of batch) {
      if (event.kind !== 'host.notice') continue;
      if (INFO_NOTICES.has(event.code)) state.showInfo(event.message);
      else state.showError(event.message);
    }
    state.noteAutomationChanged(batch.flatMap((event) => (event.kind === 'automation.changed' ? [event.taskId] : [])));
    announce.endedTurns(batch);
    announce.endedGoals(batch);
  }

  return {
    receiveEvent(event) {
      buffer.push(event);
      cancelFrame ??= deps.frames(flushEvents);
    },

    flushEvents,

    async resync() {
      flushEvents();
      const state = get();
      const selected = state.selectedSessionId;
      await Promise.all([
        state.loadSessions().then(() => get().loadGoals(get().sessions.listIds, true)),
        selected === null ? Promise.resolve() : state.refreshSession(selected),
        selected === null ? Promise.resolve() : state.loadSessionUsage(selected),
        state.loadCatalog(),
        state.loadPendingInteractions(),
        state.loadAgentLinks().then(() => (selected === null ? undefined : get().loadAgentTree(selected))),
      ]);
    },

    initialize() {
      const state = get();
      void state.loadSessions().then(() => get().loadGoals(get().sessions.listIds));
      void state.loadCatalog();
      void state.loadPendingInteractions();
      void state.loadAgentLinks();
      const fromAddress = deps.location.readSessionId();
      if (fromAddress !== null) state.selectSession(fromAddress);
    },
  };
};
