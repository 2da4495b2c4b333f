import type { AppState, SliceCreator } from './app-state';
import type { QueuesState } from './reducers/queue-reducer';
import { applySnapshotProgress, NO_PROGRESS, type RunProgressState } from './reducers/run-progress-reducer';
import { setQueue } from './reducers/queue-reducer';
import { upsertSession } from './reducers/sessions-reducer';
import type { TranscriptsState } from './reducers/transcript-reducer';
import { applySnapshotPage, loadingTranscript, patchTranscript, prependOlderPage } from './reducers/transcript-reducer';
import type { TranscriptWindow } from './transcript-window';

const OLDER_PAGE_SIZE = 100;
/**
 * A search hit further back than this from what is loaded is shown in a window around it (read in one
 * page, transcript-window.ts) instead of reading every page on the way: a round trip and a render per
 * 500 messages made a jump 7,000 messages back take a second or more.
 */
export const WINDOW_BEYOND = 400;
/** The most `transcript.page` returns at once: a jump to a near search hit reads in pages this size. */
const FAR_PAGE_SIZE = 500;

export interface TranscriptSlice extends TranscriptWindow {
  /** Loaded transcripts by session id (in practice the open session's). */
  readonly transcripts: TranscriptsState;
  /** Follow-ups waiting to start, by session id, for loaded sessions. */
  readonly queues: QueuesState;
  /** What each session's live run waits on (its provider, a retry), by session id. */
  readonly runProgress: RunProgressState;
  /** Shows a session: what is cached at once, then a fresh snapshot. */
  openSession(sessionId: string): Promise<void>;
  /** Re-reads a session's snapshot (after a reconnect, a seq gap or a delta that did not line up). */
  refreshSession(sessionId: string): Promise<void>;
  /** Reads the page before the oldest loaded message; with `reach`, a larger one (up to FAR_PAGE_SIZE) on the way to the item at that position. */
  loadOlder(sessionId: string, reach?: number): Promise<void>;
  /** The view reached the newest message and follows the stream (older messages may be let go), or left it. */
  setFollowing(sessionId: string, following: boolean): void;
}

/**
 * Where a session being opened for a search hit opens: the hit's position, so that `session.get` reads
 * the page around it in the same request — not the newest page first and the hit's after it. Null
 * for a session already loaded (its view reads towards the hit) and for a hit whose position is not known.
 */
export function hitToOpenAt(state: AppState, sessionId: string): number | null {
  const hit = state.focusedHit;
  if (hit === null || hit.sessionId !== sessionId || hit.position === null) return null;
  return state.transcripts[sessionId]?.status === 'loading' ? hit.position : null;
}

export const createTranscriptSlice: SliceCreator<TranscriptSlice> = (set, get, deps) => {
  const { link } = deps;
  let transcriptWindow: Promise<TranscriptWindow> | null = null;
  const windowOf = (): Promise<TranscriptWindow> => {
    transcriptWindow ??= import('./transcript-window').then(
      (module) => module.createTranscriptWindow(set, get, link),
      (error: unknown) => {
        transcriptWindow = null; // tried again at the next use
        throw error;
      },
    );
    return transcriptWindow;
  };
  /** Sessions being re-read, and whether another read was asked for meanwhile. */
  const refreshing = new Map<string, { again: boolean }>();

  async function readSnapshot(sessionId: string): Promise<void> {
    const around = hitToOpenAt(get(), sessionId);
    const outcome = await link.invoke('session.get', around === null ? { sessionId } : { sessionId, around });
    // Events that arrived before the answer are older than the snapshot: apply them first, then replace.
    get().flushEvents();
    if (get().transcripts[sessionId] === undefined) return;
    if (!outcome.ok) {
      if (outcome.error.code === 'not_found' && get().selectedSessionId === sessionId) {
        get().selectSession(null);
        get().showError('That session no longer exists. It may have been deleted in another window.');
      } else if (outcome.error.code !== 'not_found') {
        get().reportFailure(outcome.error);
      }
      return;
    }
    const { session, transcript, activeTurn, queue, runProgress } = outcome.result;
    set((state) => {
      const page =
        activeTurn === null || transcript.turns.some((turn) => turn.turnId === activeTurn.turnId)
          ? transcript
          : { ...transcript, turns: [...transcript.turns, activeTurn] };
      return {
        sessions: upsertSession(state.sessions, session),
        transcripts: {
          ...state.transcripts,
          [sessionId]: applySnapshotPage(state.transcripts[sessionId], sessionId, page),
        },
        queues: setQueue(state.queues, sessionId, queue),
        runProgress: applySnapshotProgress(state.runProgress, sessionId, runProgress),
      };
    });
  }

  return {
    transcripts: {},
    queues: {},
    runProgress: NO_PROGRESS,

    async openSession(sessionId) {
      if (get().transcripts[sessionId] === undefined) {
        set((state) => ({ transcripts: { ...state.transcripts, [sessionId]: loadingTranscript(sessionId) } }));
      }
      await get().refreshSession(sessionId);
    },

    async refreshSession(sessionId) {
      const running = refreshing.get(sessionId);
      if (running !== undefined) {
        running.again = true;
        return;
      }
      const entry = { again: true };
      refreshing.set(sessionId, entry);
      try {
        while (entry.again) {
          entry.again = false;
          await readSnapshot(sessionId);
        }
      } finally {
        refreshing.delete(sessionId);
      }
    },

    async loadOlder(sessionId, reach) {
      const transcript = get().transcripts[sessionId];
      if (
        transcript === undefined ||
        transcript.status !== 'ready' ||
        transcript.loadingOlder ||
        transcript.nextBefore === null
      )
        return;
      const before = transcript.nextBefore;
      set((state) => patchTranscript(state.transcripts, sessionId, { loadingOlder: true }));
      const limit =
        reach === undefined ? OLDER_PAGE_SIZE : Math.min(FAR_PAGE_SIZE, Math.max(OLDER_PAGE_SIZE, before - reach));
      const outcome = await link.invoke('transcript.page', { sessionId, before, limit });
      get().flushEvents();
      const current = get().transcripts[sessionId];
      if (current === undefined) return;
      if (!outcome.ok) {
        set((state) => patchTranscript(state.transcripts, sessionId, { loadingOlder: false }));
        get().reportFailure(outcome.error);
        return;
      }
      set((state) => {
        const latest = state.transcripts[sessionId];
        return latest === undefined
          ? {}
          : { transcripts: { ...state.transcripts, [sessionId]: prependOlderPage(latest, outcome.result) } };
      });
    },
    setFollowing(sessionId, following) {
      const transcript = get().transcripts[sessionId];
      if (transcript === undefined || transcript.following === following) return;
      set((state) => patchTranscript(state.transcripts, sessionId, { following }));
    },
    // A window around a far search hit is rare: its code loads the first time one opens.
    loadAround: async (sessionId, position) => (await windowOf()).loadAround(sessionId, position),
    loadNewer: async (sessionId) => (await windowOf()).loadNewer(sessionId),
    jumpToNewest: async (sessionId) => (await windowOf()).jumpToNewest(sessionId),
  };
};
