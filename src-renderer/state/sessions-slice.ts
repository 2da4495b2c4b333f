import type { SliceCreator } from './app-state';
import { isBlankSession } from './blank-session';
import type { SessionListView, SessionsState } from './reducers/sessions-reducer';
import { applySessionList, EMPTY_SESSIONS, removeSession, upsertSession } from './reducers/sessions-reducer';

const SEARCH_DEBOUNCE_MS = 150;
const PAGE_SIZE = 100;

export interface SessionsSlice {
  readonly sessions: SessionsState;
  /** What the search box holds; the list follows it after a short pause. */
  readonly searchText: string;
  readonly selectedSessionId: string | null;
  loadSessions(): Promise<void>;
  loadMoreSessions(): Promise<void>;
  setSearchText(text: string): void;
  setArchivedView(archived: boolean): void;
  createSession(): Promise<void>;
  renameSession(sessionId: string, title: string): Promise<void>;
  setSessionArchived(sessionId: string, archived: boolean): Promise<void>;
  deleteSession(sessionId: string): Promise<void>;
  /** Points the session's next turns at another connection and/or model (null: the connection's default). */
  configureSession(sessionId: string, connectionId: string, model: string | null): Promise<void>;
  selectSession(sessionId: string | null): void;
}

export const createSessionsSlice: SliceCreator<SessionsSlice> = (set, get, deps) => {
  const { link, timers } = deps;
  let listRequest = 0;
  let searchTimer: unknown = null;
  /** The session this window's New session made last: reused while blank, removed when left blank. */
  let made: string | null = null;

  /** Removes the session New session made if the person leaves it without writing anything. */
  const dropIfLeftBlank = (leaving: string | null, next: string | null) => {
    if (leaving === null || leaving !== made || leaving === next) return;
    made = null;
    if (!isBlankSession(get(), leaving)) return;
    set((state) => ({ sessions: removeSession(state.sessions, leaving) }));
    void link.invoke('session.remove', { sessionId: leaving }).then((outcome) => {
      // Not removed (it is in use after all, or the host is away): show it again as it is.
      if (!outcome.ok) void get().loadSessions();
    });
  };

  const currentView = (): SessionListView => ({
    archived: get().sessions.view.archived,
    query: get().searchText.trim(),
  });

  /** Reads a page of the list (the first, or the one after `cursor`); an answer overtaken by a newer request is dropped. */
  const listPage = async (view: SessionListView, cursor: string | null): Promise<void> => {
    const request = ++listRequest;
    const outcome = await link.invoke('session.list', {
      archived: view.archived,
      limit: PAGE_SIZE,
      ...(cursor === null ? {} : { cursor }),
      ...(view.query === '' ? {} : { query: view.query }),
    });
    if (request !== listRequest) return;
    get().flushEvents();
    if (!outcome.ok) {
      get().reportFailure(outcome.error);
      return;
    }
    set((state) => ({ sessions: applySessionList(state.sessions, view, outcome.result, cursor !== null) }));
  };

  return {
    sessions: EMPTY_SESSIONS,
    searchText: '',
    selectedSessionId: null,

    loadSessions() {
      return listPage(currentView(), null);
    },

    async loadMoreSessions() {
      const { sessions } = get();
      if (sessions.nextCursor !== null) await listPage(sessions.view, sessions.nextCursor);
    },

    setSearchText(text) {
      set({ searchText: text });
      if (searchTimer !== null) timers.clearTimeout(searchTimer);
      searchTimer = timers.setTimeout(() => {
        searchTimer = null;
        void get().loadSessions();
        void get().searchMessages();
      }, SEARCH_DEBOUNCE_MS);
    },

    setArchivedView(archived) {
      if (get().sessions.view.archived === archived) return;
      set((state) => ({
        sessions: { ...state.sessions, view: { ...state.sessions.view, archived }, listIds: [], listLoaded: false },
      }));
      void get().loadSessions();
    },

    async createSession() {
      const { sessions, searchText, selectedSessionId } = get();
      // The open session is a blank one New session made: it is the new session.
      if (
        selectedSessionId !== null &&
        selectedSessionId === made &&
        !sessions.view.archived &&
        searchText === '' &&
        isBlankSession(get(), selectedSessionId)
      ) {
        return;
      }
      if (sessions.view.archived || searchText !== '') {
        set((state) => ({
          searchText: '',
          sessions: { ...state.sessions, view: { archived: false, query: '' }, listIds: [], listLoaded: false },
        }));
        void get().loadSessions();
      }
      const outcome = await link.invoke('session.create', {});
      if (!outcome.ok) {
        get().reportFailure(outcome.error);
        return;
      }
      const { session } = outcome.result;
      set((state) => ({ sessions: upsertSession(state.sessions, session) }));
      get().selectSession(session.sessionId);
      made = session.sessionId;
    },

    ...sessionEdits(set, get, link),

    selectSession(sessionId) {
      const state = get();
      if (sessionId === state.selectedSessionId && (sessionId === null || state.transcripts[sessionId] !== undefined))
        return;
      dropIfLeftBlank(state.selectedSessionId, sessionId);
      // Only the open session's transcript is kept; reopening one reads a fresh snapshot.
      const transcript = sessionId === null ? undefined : state.transcripts[sessionId];
      const queue = sessionId === null ? undefined : state.queues[sessionId];
      set({
        selectedSessionId: sessionId,
        transcripts: sessionId !== null && transcript !== undefined ? { [sessionId]: transcript } : {},
        queues: sessionId !== null && queue !== undefined ? { [sessionId]: queue } : {},
      });
      deps.location.writeSessionId(sessionId);
      if (sessionId === null) return;
      void get().openSession(sessionId);
      void get().loadGoal(sessionId);
      void get().loadSessionUsage(sessionId);
      void get().loadContextMeter(sessionId);
      void get().loadAgentTree(sessionId);
      void get().loadCodexStatus(sessionId);
      void get().loadAcpAgent(sessionId);
    },
  };
};

/** Renaming, archiving, deleting and pointing a session elsewhere: each shows the session as the host returns it. */
function sessionEdits(
  set: Parameters<SliceCreator<SessionsSlice>>[0],
  get: Parameters<SliceCreator<SessionsSlice>>[1],
  link: Parameters<SliceCreator<SessionsSlice>>[2]['link'],
): Pick<SessionsSlice, 'renameSession' | 'setSessionArchived' | 'deleteSession' | 'configureSession'> {
  return {
    async renameSession(sessionId, title) {
      set({ renamingId: null });
      const known = get().sessions.byId[sessionId];
      const trimmed = title.trim();
      if (known === undefined || trimmed === '' || trimmed === known.title) return;
      const outcome = await link.invoke('session.rename', {
        sessionId,
        title: trimmed,
        expectedRevision: known.revision,
      });
      if (!outcome.ok) {
        get().reportFailure(outcome.error);
        return;
      }
      set((state) => ({ sessions: upsertSession(state.sessions, outcome.result.session) }));
    },

    async setSessionArchived(sessionId, archived) {
      const outcome = await link.invoke('session.archive', { sessionId, archived });
      if (!outcome.ok) {
        get().reportFailure(outcome.error);
        return;
      }
      set((state) => ({ sessions: upsertSession(state.sessions, outcome.result.session) }));
    },

    async deleteSession(sessionId) {
      set({ pendingDeleteId: null });
      const outcome = await link.invoke('session.remove', { sessionId });
      if (!outcome.ok) {
        get().reportFailure(outcome.error);
        return;
      }
      set((state) => ({ sessions: removeSession(state.sessions, sessionId) }));
      if (get().selectedSessionId === sessionId) get().selectSession(null);
    },

    async configureSession(sessionId, connectionId, model) {
      const outcome = await link.invoke('session.configure', { sessionId, connectionId, model });
      if (!outcome.ok) {
        get().reportFailure(outcome.error);
        return;
      }
      set((state) => ({ sessions: upsertSession(state.sessions, outcome.result.session) }));
    },
  };
}
