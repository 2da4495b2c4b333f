import type { ChangeEvent } from '../../src-shared/events';
import { waitingSessionLabel } from './agent-selectors';
import type { AppState, AppStore, StoreDeps } from './app-state';
import { notificationsOn } from './preferences-slice';
import { endedTurns, turnEndBody } from './turn-end-notes';

/** The OS notifications host events call for: a turn ended, a goal ended, an interaction started waiting. */
export interface SyncAnnouncements {
  newWaits(before: AppState, after: AppState): void;
  endedTurns(batch: readonly ChangeEvent[]): void;
  endedGoals(batch: readonly ChangeEvent[]): void;
}

export function createSyncAnnouncements(get: AppStore['getState'], deps: StoreDeps): SyncAnnouncements {
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
    if (batch.some((event) => event.kind === 'goal.changed'))
      void import('./goal-end-notes').then((module) => module.announceEndedGoals(activeGoals, batch, get, deps.notify));
  }

  /** An OS notification for each interaction that started waiting (only in the background, where permitted). */
  function announceNewWaits(before: AppState, after: AppState) {
    if (
      deps.notify === undefined ||
      !notificationsOn(after.notifications) ||
      after.interactions.pendingIds === before.interactions.pendingIds
    )
      return;
    const known = new Set(before.interactions.pendingIds);
    for (const interactionId of after.interactions.pendingIds) {
      const record = after.interactions.byId[interactionId];
      if (known.has(interactionId) || record === undefined) continue;
      const title = waitingSessionLabel(record.sessionId, after.sessions.byId, after.agents.links);
      const body =
        record.request.kind === 'permission'
          ? `Permission needed: ${record.request.summary}`
          : record.request.kind === 'network'
            ? `Allow network to ${record.request.host}`
            : record.request.kind === 'form'
              ? record.request.title
              : (record.request.questions[0]?.prompt ?? 'A question for you');
      deps.notify({ title: `${title} is waiting for you`, body, onClick: () => get().selectSession(record.sessionId) });
    }
  }

  return { newWaits: announceNewWaits, endedTurns: announceEndedTurns, endedGoals: announceEndedGoals };
}
