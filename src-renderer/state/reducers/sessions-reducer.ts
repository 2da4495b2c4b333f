import type { ChangeEvent } from '../../../src-shared/events';
import type { SessionRecord } from '../../../src-shared/model';
import type { SessionListResult } from '../../../src-shared/operations';
import { WORKHUB_SESSION_ID } from '../../../src-shared/workhub-model';

/** Which sessions the sidebar lists: active or archived ones, optionally filtered by title. */
export interface SessionListView {
  readonly archived: boolean;
  readonly query: string;
}

export interface SessionsState {
  /** Every session this window knows about, listed or not (the open one may be filtered out). */
  readonly byId: Readonly<Record<string, SessionRecord>>;
  /** The sidebar's list for `view`, newest activity first, as the host orders it. */
  readonly listIds: readonly string[];
  readonly view: SessionListView;
  /** Set when the host has more sessions for this view than are loaded. */
  readonly nextCursor: string | null;
  readonly listLoaded: boolean;
}

export const EMPTY_SESSIONS: SessionsState = {
  byId: {},
  listIds: [],
  view: { archived: false, query: '' },
  nextCursor: null,
  listLoaded: false,
};

/** The host's own filter (session.list): archived flag, then a case-insensitive title substring; never the WorkHub's own session. */
export function sessionMatchesView(session: SessionRecord, view: SessionListView): boolean {
  if (session.archived !== view.archived || session.sessionId === WORKHUB_SESSION_ID) return false;
  const query = view.query.trim().toLowerCase();
  return query === '' || session.title.toLowerCase().includes(query);
}

/** The host's order: most recently updated first, ties by id descending. */
export function compareSessions(a: SessionRecord, b: SessionRecord): number {
  if (a.updatedAt !== b.updatedAt) return b.updatedAt - a.updatedAt;
  return a.sessionId < b.sessionId ? 1 : a.sessionId > b.sessionId ? -1 : 0;
}

/** Applies a session.list answer for `view`; `append` adds a further page to the loaded one. */
export function applySessionList(
  state: SessionsState,
  view: SessionListView,
  result: SessionListResult,
  append: boolean,
): SessionsState {
  const byId = { ...state.byId };
  for (const session of result.sessions) byId[session.sessionId] = newerOf(byId[session.sessionId], session);
  const fetched = result.sessions.map((session) => session.sessionId);
  const listIds = append ? [...state.listIds, ...fetched.filter((id) => !state.listIds.includes(id))] : fetched;
  return { byId, listIds, view, nextCursor: result.nextCursor, listLoaded: true };
}

/** A session record from an event or an operation's answer; an older revision never replaces a newer one. */
export function upsertSession(state: SessionsState, session: SessionRecord): SessionsState {
  const known = state.byId[session.sessionId];
  if (known !== undefined && known.revision > session.revision) return state;
  const byId = { ...state.byId, [session.sessionId]: session };
  const without = state.listIds.filter((id) => id !== session.sessionId);
  if (!sessionMatchesView(session, state.view)) {
    return { ...state, byId, listIds: without.length === state.listIds.length ? state.listIds : without };
  }
  const index = without.findIndex((id) => {
    const other = byId[id];
    return other !== undefined && compareSessions(session, other) < 0;
  });
  if (index === -1 && state.nextCursor !== null) {
    // It sorts after everything loaded, so it belongs to a page not read yet.
    return { ...state, byId, listIds: without };
  }
  const listIds =
    index === -1
      ? [...without, session.sessionId]
      : [...without.slice(0, index), session.sessionId, ...without.slice(index)];
  return { ...state, byId, listIds };
}

export function removeSession(state: SessionsState, sessionId: string): SessionsState {
  if (state.byId[sessionId] === undefined && !state.listIds.includes(sessionId)) return state;
  const byId = { ...state.byId };
  delete byId[sessionId];
  return { ...state, byId, listIds: state.listIds.filter((id) => id !== sessionId) };
}

export function reduceSessionEvent(state: SessionsState, event: ChangeEvent): SessionsState {
  switch (event.kind) {
    case 'session.changed':
      return upsertSession(state, event.session);
    case 'session.removed':
      return removeSession(state, event.sessionId);
    default:
      return state;
  }
}

function newerOf(known: SessionRecord | undefined, incoming: SessionRecord): SessionRecord {
  return known !== undefined && known.revision > incoming.revision ? known : incoming;
}
