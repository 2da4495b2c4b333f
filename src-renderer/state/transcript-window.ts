import type { HostLink } from '../bridge/host-link';
import type { AppStore } from './app-state';
import type { TranscriptItem, TranscriptPage, TurnSummary } from '../../src-shared/model';
import { mergeTurns, patchTranscript, type TranscriptState } from './reducers/transcript-reducer';

/** A window's size (the host puts a third of it from the hit on, the rest before it). */
const WINDOW_SIZE = 120;
const NEWER_PAGE_SIZE = 100;

/** A window of a transcript around a far search hit: opened, grown towards the newest, left. */
export interface TranscriptWindow {
  /** Shows a window of messages around `position` (a far search hit) in place of what is loaded. */
  loadAround(sessionId: string, position: number): Promise<void>;
  /** Reads the page after a window's newest message; at the newest, the window joins the live transcript. */
  loadNewer(sessionId: string): Promise<void>;
  /** Leaves a window for the newest messages. */
  jumpToNewest(sessionId: string): Promise<void>;
}

export function createTranscriptWindow(
  set: AppStore['setState'],
  get: AppStore['getState'],
  link: HostLink,
): TranscriptWindow {
  return {
    async loadAround(sessionId, position) {
      const transcript = get().transcripts[sessionId];
      if (transcript === undefined || transcript.status !== 'ready' || transcript.loadingOlder) return;
      set((state) => patchTranscript(state.transcripts, sessionId, { loadingOlder: true }));
      const outcome = await link.invoke('transcript.page', { sessionId, around: position, limit: WINDOW_SIZE });
      get().flushEvents();
      if (get().transcripts[sessionId] === undefined) return;
      if (!outcome.ok) {
        set((state) => patchTranscript(state.transcripts, sessionId, { loadingOlder: false }));
        get().reportFailure(outcome.error);
        return;
      }
      set((state) => ({
        transcripts: { ...state.transcripts, [sessionId]: applyWindowPage(sessionId, outcome.result) },
      }));
    },

    async loadNewer(sessionId) {
      const transcript = get().transcripts[sessionId];
      if (
        transcript === undefined ||
        transcript.status !== 'ready' ||
        transcript.loadingNewer ||
        transcript.newerAfter === null
      )
        return;
      const after = transcript.newerAfter;
      set((state) => patchTranscript(state.transcripts, sessionId, { loadingNewer: true }));
      const outcome = await link.invoke('transcript.page', { sessionId, after, limit: NEWER_PAGE_SIZE });
      get().flushEvents();
      if (get().transcripts[sessionId] === undefined) return;
      if (!outcome.ok) {
        set((state) => patchTranscript(state.transcripts, sessionId, { loadingNewer: false }));
        get().reportFailure(outcome.error);
        return;
      }
      set((state) => {
        const latest = state.transcripts[sessionId];
        return latest === undefined || latest.newerAfter === null
          ? {}
          : { transcripts: { ...state.transcripts, [sessionId]: appendNewerPage(latest, outcome.result) } };
      });
      // At the newest: live again, and what streamed meanwhile is read with a snapshot.
      if (get().transcripts[sessionId]?.newerAfter === null) await get().refreshSession(sessionId);
    },

    async jumpToNewest(sessionId) {
      if (get().transcripts[sessionId]?.newerAfter === null) return;
      set((state) => patchTranscript(state.transcripts, sessionId, { newerAfter: null }));
      await get().refreshSession(sessionId);
    },
  };
}

/** A window of the transcript around a far search hit, in place of what was loaded (which was the newest). */
export function applyWindowPage(sessionId: string, page: TranscriptPage): TranscriptState {
  const itemsById: Record<string, TranscriptItem> = {};
  for (const item of page.items) itemsById[item.itemId] = item;
  const turnsById: Record<string, TurnSummary> = {};
  for (const turn of page.turns) turnsById[turn.turnId] = turn;
  return {
    sessionId,
    status: 'ready',
    itemsById,
    itemIds: page.items.map((item) => item.itemId),
    turnsById,
    nextBefore: page.nextBefore,
    loadingOlder: false,
    newerAfter: page.nextAfter ?? null,
    loadingNewer: false,
    stale: false,
    following: false,
  };
}

/** Puts a newer page (transcript.page with `after`) after what a window holds. */
export function appendNewerPage(current: TranscriptState, page: TranscriptPage): TranscriptState {
  const lastLoaded = current.itemIds.at(-1) === undefined ? undefined : current.itemsById[current.itemIds.at(-1) ?? ''];
  const newer = page.items.filter(
    (item) =>
      current.itemsById[item.itemId] === undefined && (lastLoaded === undefined || item.position > lastLoaded.position),
  );
  const itemsById = { ...current.itemsById };
  for (const item of newer) itemsById[item.itemId] = item;
  return {
    ...current,
    itemsById,
    itemIds: [...current.itemIds, ...newer.map((item) => item.itemId)],
    turnsById: mergeTurns(current.turnsById, page.turns),
    newerAfter: page.nextAfter ?? null,
    loadingNewer: false,
  };
}
