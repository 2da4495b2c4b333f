import { useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useRef, type ReactNode, type RefObject } from 'react';
import type { AppState } from '../state/app-state';
import { NO_IDS, selectSessionBusy } from '../state/selectors';
import { WINDOW_BEYOND } from '../state/transcript-slice';
import { useAppStore, useStoreApi } from '../state/store-context';
import { ArrowDownIcon, Spinner } from './icons';
import { MessageRow } from './MessageRow';
import { SessionEmpty } from './SessionEmpty';

/** How close to the top (px) scrolling must come before the next older page is read. */
const LOAD_OLDER_WITHIN_PX = 800;
/** Within this distance of the bottom the view counts as "at the newest" and follows the stream. */
const AT_END_PX = 48;

/**
 * The session's messages in a virtualised list (only what is near the viewport is in the DOM). It
 * opens at the newest message, follows a stream while you are at the bottom, and reads older pages
 * as you scroll up, keeping what you are looking at in place.
 */
export function TranscriptView({
  sessionId,
  empty,
}: {
  sessionId: string;
  /** What an empty transcript shows instead of the session's. */ empty?: ReactNode;
}) {
  const store = useStoreApi();
  const itemIds = useAppStore((state) => state.transcripts[sessionId]?.itemIds ?? NO_IDS);
  const ready = useAppStore((state) => state.transcripts[sessionId]?.status === 'ready');
  const hasOlder = useAppStore((state) => (state.transcripts[sessionId]?.nextBefore ?? null) !== null);
  const loadingOlder = useAppStore((state) => state.transcripts[sessionId]?.loadingOlder ?? false);
  // A window around a far search hit: newer messages are read as the person scrolls down.
  const detached = useAppStore((state) => (state.transcripts[sessionId]?.newerAfter ?? null) !== null);
  const busy = useAppStore(selectSessionBusy(sessionId));
  const scrollRef = useRef<HTMLDivElement>(null);
  const openedAtEnd = useRef(false);
  /** Whether the person was at the newest message when they last scrolled (or were put there). */
  const stuckToEnd = useRef(true);
  /** While a window opens around a search hit, until the hit is in view: no newer page is read. */
  const newerHeld = useRef(false);

  const virtualizer = useVirtualizer({
    count: itemIds.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 120,
    getItemKey: (index) => itemIds[index] ?? index,
    overscan: 6,
    paddingStart: 20,
    paddingEnd: 28,
    anchorTo: 'end',
    // A window around a search hit grows as the person scrolls down; only the live transcript follows the stream.
    followOnAppend: !detached,
    scrollEndThreshold: AT_END_PX,
  });

  const maybeLoadOlder = useCallback(() => {
    const element = scrollRef.current;
    if (element === null || !ready) return;
    if (element.scrollTop < LOAD_OLDER_WITHIN_PX) void store.getState().loadOlder(sessionId);
    const nearBottom = element.scrollHeight - element.scrollTop - element.clientHeight < LOAD_OLDER_WITHIN_PX;
    if (detached && nearBottom && !newerHeld.current) void store.getState().loadNewer(sessionId);
  }, [ready, detached, sessionId, store]);

  const onScroll = useCallback(() => {
    const element = scrollRef.current;
    if (element !== null) {
      stuckToEnd.current = element.scrollHeight - element.scrollTop - element.clientHeight <= AT_END_PX;
      // At the newest, older messages may be let go as the stream goes on; reading back, they stay.
      if (openedAtEnd.current) store.getState().setFollowing(sessionId, stuckToEnd.current);
    }
    maybeLoadOlder();
  }, [maybeLoadOlder, sessionId, store]);

  useStayAtEndOnResize(scrollRef, stuckToEnd, openedAtEnd);

  // Open at the newest message, once the first snapshot is in — or, opened at a search hit, at the hit (below).
  useLayoutEffect(() => {
    if (!ready || openedAtEnd.current || itemIds.length === 0) return;
    openedAtEnd.current = true;
    const hit = store.getState().focusedHit;
    if (hit?.sessionId === sessionId && store.getState().transcripts[sessionId]?.itemsById[hit.itemId] !== undefined)
      return;
    virtualizer.scrollToEnd();
  }, [ready, itemIds.length, virtualizer, sessionId, store]);

  // A new message from the person (sent here or started from the queue) brings the view to the newest
  // (also when a reply arrives in the same batch, as the WorkHub's proposal does).
  const lastUserItemId = useAppStore(selectLastUserItemId(sessionId));
  const detachedRef = useRef(detached);
  detachedRef.current = detached;
  useLayoutEffect(() => {
    // In a window around a search hit, a page read below is not a new message.
    if (lastUserItemId === null || !openedAtEnd.current || detachedRef.current) return;
    stuckToEnd.current = true;
    virtualizer.scrollToEnd();
  }, [lastUserItemId, virtualizer]);

  // Scrolled to a search hit before the check below, which would otherwise read pages from where the view was.
  const view = { sessionId, itemIds, ready, hasOlder, loadingOlder, virtualizer, openedAtEnd, stuckToEnd, newerHeld };
  const hitItemId = useSearchHitInView(view);

  // A short page may not fill the view, or a fast fling may have outrun the last read: check again.
  useLayoutEffect(() => {
    if (!loadingOlder && hasOlder && openedAtEnd.current) maybeLoadOlder();
  }, [loadingOlder, hasOlder, maybeLoadOlder, itemIds.length]);

  const scrollToNewest = useScrollToNewest({ sessionId, detached, itemIds, virtualizer, stuckToEnd });

  const items = virtualizer.getVirtualItems();
  const atEnd = !detached && (itemIds.length === 0 || virtualizer.isAtEnd(AT_END_PX));

  return (
    <div className="transcript-frame">
      <div
        className="transcript"
        data-testid="transcript"
        ref={scrollRef}
        role="log"
        aria-label="Conversation"
        aria-busy={busy}
        tabIndex={0}
        onScroll={onScroll}
      >
        {ready && itemIds.length === 0 ? (empty ?? <SessionEmpty sessionId={sessionId} />) : null}
        {!ready ? (
          <div className="transcript-loading">
            <Spinner label="Loading the conversation" />
          </div>
        ) : null}
        <div className="transcript-canvas" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((virtualItem) => {
            const itemId = itemIds[virtualItem.index];
            if (itemId === undefined) return null;
            return (
              <div
                key={virtualItem.key}
                data-index={virtualItem.index}
                ref={virtualizer.measureElement}
                className={itemId === hitItemId ? 'transcript-row is-search-hit' : 'transcript-row'}
                data-search-hit={itemId === hitItemId ? true : undefined}
                style={{ transform: `translateY(${virtualItem.start}px)` }}
              >
                <MessageRow sessionId={sessionId} itemId={itemId} index={virtualItem.index} />
              </div>
            );
          })}
        </div>
      </div>
      {loadingOlder ? (
        <div className="older-loading" role="status">
          <Spinner />
          Loading earlier messages…
        </div>
      ) : null}
      {!atEnd ? (
        <button
          type="button"
          className="jump-to-latest"
          aria-label="Scroll to the newest message"
          onClick={scrollToNewest}
        >
          <ArrowDownIcon />
        </button>
      ) : null}
    </div>
  );
}

/** When the viewport shrinks (the composer grows, follow-ups queue up), stay at the newest message. */
function useStayAtEndOnResize(
  scrollRef: RefObject<HTMLDivElement | null>,
  stuckToEnd: RefObject<boolean>,
  openedAtEnd: RefObject<boolean>,
): void {
  useEffect(() => {
    const element = scrollRef.current;
    if (element === null) return;
    const observer = new ResizeObserver(() => {
      if (stuckToEnd.current && openedAtEnd.current) element.scrollTop = element.scrollHeight;
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [scrollRef, stuckToEnd, openedAtEnd]);
}

/** The person's newest message, when it is in the newest turn (within its last few items); null otherwise. */
function selectLastUserItemId(sessionId: string) {
  return (state: AppState): string | null => {
    const transcript = state.transcripts[sessionId];
    if (transcript === undefined) return null;
    const { itemIds: ids, itemsById } = transcript;
    const newestTurn = itemsById[ids.at(-1) ?? '']?.turnId;
    for (let index = ids.length - 1; index >= Math.max(0, ids.length - 8); index -= 1) {
      const item = itemsById[ids[index] ?? ''];
      if (item === undefined || item.turnId !== newestTurn) return null;
      if (item.kind === 'user_message') return item.itemId;
    }
    return null;
  };
}

/**
 * A search hit opened in this session: older pages are read until its message is loaded — or, when it
 * is far back, a window around it replaces them — then it is brought into view.
 */
function useSearchHitInView(view: {
  sessionId: string;
  itemIds: readonly string[];
  ready: boolean;
  hasOlder: boolean;
  loadingOlder: boolean;
  virtualizer: Virtualizer<HTMLDivElement, Element>;
  openedAtEnd: RefObject<boolean>;
  stuckToEnd: RefObject<boolean>;
  newerHeld: RefObject<boolean>;
}): string | null {
  const { sessionId, itemIds, ready, hasOlder, loadingOlder, virtualizer, openedAtEnd, stuckToEnd, newerHeld } = view;
  const store = useStoreApi();
  const hitItemId = useAppStore((state) =>
    state.focusedHit?.sessionId === sessionId ? state.focusedHit.itemId : null,
  );
  const hitPosition = useAppStore((state) =>
    state.focusedHit?.sessionId === sessionId ? state.focusedHit.position : null,
  );
  const hitIndex = hitItemId === null ? -1 : itemIds.indexOf(hitItemId);
  const scrolledToHit = useRef<string | null>(null);
  useLayoutEffect(() => {
    if (hitItemId === null || !ready) return;
    if (hitIndex === -1) {
      // Once shown, a hit is not read back again when the person has moved on (e.g. to the newest).
      if (!hasOlder || loadingOlder || scrolledToHit.current === hitItemId) return;
      const transcript = store.getState().transcripts[sessionId];
      const loadedFrom = transcript?.nextBefore ?? null;
      if (hitPosition !== null && loadedFrom !== null && loadedFrom - hitPosition > WINDOW_BEYOND) {
        newerHeld.current = true;
        void store.getState().loadAround(sessionId, hitPosition);
      } else void store.getState().loadOlder(sessionId, hitPosition ?? undefined);
      return;
    }
    if (scrolledToHit.current === hitItemId || !openedAtEnd.current) return;
    scrolledToHit.current = hitItemId;
    stuckToEnd.current = false;
    virtualizer.scrollToIndex(hitIndex, { align: 'center' });
    newerHeld.current = false;
  }, [hitItemId, hitIndex, hitPosition, ready, hasOlder, loadingOlder, sessionId, store, virtualizer]);
  return hitItemId;
}

/**
 * "Scroll to the newest": in the live transcript a smooth scroll; from a window around a search hit,
 * the newest messages are read first and the view goes to the end once they are in.
 */
function useScrollToNewest(view: {
  sessionId: string;
  detached: boolean;
  itemIds: readonly string[];
  virtualizer: Virtualizer<HTMLDivElement, Element>;
  stuckToEnd: RefObject<boolean>;
}): () => void {
  const { sessionId, detached, itemIds, virtualizer, stuckToEnd } = view;
  const store = useStoreApi();
  /** The messages shown when "Scroll to the newest" was pressed in a window: the end is scrolled to once they are replaced. */
  const endRequested = useRef<readonly string[] | null>(null);
  useLayoutEffect(() => {
    if (endRequested.current === null || detached || itemIds === endRequested.current) return;
    endRequested.current = null;
    stuckToEnd.current = true;
    virtualizer.scrollToEnd();
  }, [detached, itemIds, virtualizer, stuckToEnd]);
  return () => {
    if (!detached) {
      virtualizer.scrollToEnd({ behavior: 'smooth' });
      return;
    }
    endRequested.current = itemIds;
    void store.getState().jumpToNewest(sessionId);
  };
}
