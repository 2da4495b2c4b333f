import type { ChangeEvent } from '../../src-shared/events';
import { isActiveStatus } from '../../src-shared/model';
import { waitingSessionLabel } from './agent-selectors';
import type { AppState, SliceCreator } from './app-state';
import { notificationsOn } from './preferences-slice';
import { applyChangeEvents } from './reducers/apply-events';
import { endedTurns, turnEndBody } from './turn-end-notes';

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
        ...(state.pendingDeleteId !== null && record.sessions.byId[state.pendingDeleteId] === undefined ? { pendingDeleteId: null } : {}),
        ...(state.renamingId !== null && record.sessions.byId[state.renamingId] === undefined ? { renamingId: null } : {}),
      });
      if (selectedGone) deps.location.writeSessionId(null);
      for (const transcript of Object.values(record.transcripts)) {
        if (transcript.stale) void get().refreshSession(transcript.sessionId);
      }
      announceNewWaits(state, get());
    }
    followUp(batch);
  }

  /** What events ask for beyond the record: a new catalog to read, the open session's totals. */
  function followUp(batch: readonly ChangeEvent[]) {
    const state = get();
    const newCatalog = batch.some((event) => event.kind === 'connections.changed' && event.catalogRevision > state.catalog.catalogRevision);
    if (newCatalog) void state.loadCatalog();
    const selected = state.selectedSessionId;
    const turnSettled = batch.some(
      (event) => event.kind === 'turn.changed' && event.turn.sessionId === selected && event.turn.usage !== null && !isActiveStatus(event.turn.status),
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
    for (const event of batch) {
      if (event.kind !== 'host.notice') continue;
      if (INFO_NOTICES.has(event.code)) state.showInfo(event.message);
      else state.showError(event.message);
    }
    state.noteAutomationChanged(batch.flatMap((event) => (event.kind === 'automation.changed' ? [event.taskId] : [])));
    announceEndedTurns(batch);
    announceEndedGoals(batch);
  }

  /** Turns this window saw running, so that an ended one can be told about (not one already over when first heard of). */
  const runningTurns = new Set<string>();

  /** An OS notification for each turn that ended (only in the background, where permitted and turned on). */
  function announceEndedTurns(batch: readonly ChangeEvent[]) {
    const ended = endedTurns(runningTurns, batch);
    const state = get();
    if (deps.notify === undefined || !notificationsOn(state.notifications)) return;
    for (const turn of ended) {
      const title = waitingSessionLabel(turn.sessionId, state.sessions.byId, state.agents.links);
      deps.notify({ title, body: turnEndBody(turn.status), onClick: () => get().selectSession(turn.sessionId) });
    }
  }

  /** Goals this window saw working, so that one that stopped by itself can be told about. */
  const activeGoals = new Set<string>();

  /** An OS notification for each goal reached, blocked or stopped at a limit (the code loads with the first goal event). */
  function announceEndedGoals(batch: readonly ChangeEvent[]) {
    if (batch.some((event) => event.kind === 'goal.changed')) void import('./goal-end-notes').then((module) => module.announceEndedGoals(activeGoals, batch, get, deps.notify));
  }

  /** An OS notification for each interaction that started waiting (only in the background, where permitted). */
  function announceNewWaits(before: AppState, after: AppState) {
    if (deps.notify === undefined || !notificationsOn(after.notifications) || after.interactions.pendingIds === before.interactions.pendingIds) return;
    const known = new Set(before.interactions.pendingIds);
    for (const interactionId of after.interactions.pendingIds) {
      const record = after.interactions.byId[interactionId];
      if (known.has(interactionId) || record === undefined) continue;
      const title = waitingSessionLabel(record.sessionId, after.sessions.byId, after.agents.links);
      const body =
        record.request.kind === 'permission'
          ? `Approval needed: ${record.request.summary}`
          : record.request.kind === 'network'
            ? `Allow network to ${record.request.host}`
            : record.request.kind === 'form'
              ? record.request.title
              : (record.request.questions[0]?.prompt ?? 'A question for you');
      deps.notify({ title: `${title} is waiting for you`, body, onClick: () => get().selectSession(record.sessionId) });
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
