import type { ChangeEvent } from '../../../src-shared/events';
import type { InteractionRecord } from '../../../src-shared/interaction-model';

/** Interactions this window knows: those its transcripts show, and every pending one (the "Waiting for you" list). */
export interface InteractionsState {
  readonly byId: Readonly<Record<string, InteractionRecord>>;
  /** Pending interactions across all sessions, oldest first. */
  readonly pendingIds: readonly string[];
  readonly pendingLoaded: boolean;
}

export const EMPTY_INTERACTIONS: InteractionsState = { byId: {}, pendingIds: [], pendingLoaded: false };

/**
 * An interaction from an event or an answer. Statuses only move forward (pending → answered,
 * declined, cancelled or closed), so an older copy never replaces a newer one.
 */
export function applyInteraction(state: InteractionsState, record: InteractionRecord): InteractionsState {
  const known = state.byId[record.interactionId];
  if (known !== undefined) {
    if (known.status !== 'pending' && record.status === 'pending') return state;
    if (known.updatedAt > record.updatedAt) return state;
  }
  const byId = { ...state.byId, [record.interactionId]: record };
  const listed = state.pendingIds.includes(record.interactionId);
  let pendingIds = state.pendingIds;
  if (record.status === 'pending' && !listed)
    pendingIds = sortByCreation([...state.pendingIds, record.interactionId], byId);
  if (record.status !== 'pending' && listed) pendingIds = state.pendingIds.filter((id) => id !== record.interactionId);
  return { ...state, byId, pendingIds };
}

/**
 * The answer of interaction.list {status: 'pending'}: it replaces the pending list. A record held as
 * pending that the list no longer has was settled while this window was not looking: it is dropped,
 * so whoever shows it reads it afresh.
 */
export function applyPendingList(state: InteractionsState, records: readonly InteractionRecord[]): InteractionsState {
  const byId: Record<string, InteractionRecord> = { ...state.byId };
  const listed = new Set(records.map((record) => record.interactionId));
  for (const [id, record] of Object.entries(byId)) {
    if (record.status === 'pending' && !listed.has(id)) delete byId[id];
  }
  for (const record of records) {
    const known = byId[record.interactionId];
    if (known === undefined || known.updatedAt <= record.updatedAt) byId[record.interactionId] = record;
  }
  const pendingIds = sortByCreation(
    records.map((record) => record.interactionId).filter((id) => byId[id]?.status === 'pending'),
    byId,
  );
  return { byId, pendingIds, pendingLoaded: true };
}

/** Forgets one interaction (so it is read again), e.g. after its answer was refused as stale. */
export function forgetInteraction(state: InteractionsState, interactionId: string): InteractionsState {
  if (state.byId[interactionId] === undefined) return state;
  const byId = { ...state.byId };
  delete byId[interactionId];
  return { ...state, byId };
}

export function reduceInteractionEvent(state: InteractionsState, event: ChangeEvent): InteractionsState {
  switch (event.kind) {
    case 'interaction.changed':
      return applyInteraction(state, event.interaction);
    case 'session.removed': {
      const gone = Object.values(state.byId).filter((record) => record.sessionId === event.sessionId);
      if (gone.length === 0) return state;
      const byId = { ...state.byId };
      for (const record of gone) delete byId[record.interactionId];
      return { ...state, byId, pendingIds: state.pendingIds.filter((id) => byId[id] !== undefined) };
    }
    default:
      return state;
  }
}

function sortByCreation(ids: string[], byId: Readonly<Record<string, InteractionRecord>>): string[] {
  return ids.sort((a, b) => (byId[a]?.createdAt ?? 0) - (byId[b]?.createdAt ?? 0) || (a < b ? -1 : a > b ? 1 : 0));
}
