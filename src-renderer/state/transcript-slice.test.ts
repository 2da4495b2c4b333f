import { describe, expect, it, vi } from 'vitest';
import { item, session } from './reducers/record-fixtures';
import type { MessageSearchHit } from '../../src-shared/chat-model';
import { setupStore } from './test-store';

/** Items `first` to `end - 1` of a 5,001-item transcript (positions 0 to 5,000) as a page. */
function pageOf(first: number, end: number) {
  const items = Array.from({ length: end - first }, (_, index) =>
    item({
      itemId: `u${first + index}`,
      position: first + index,
      kind: 'user_message',
      text: first + index === 5000 ? 'newest' : 'older',
    }),
  );
  const last = end - 1;
  return { items, turns: [], nextBefore: first === 0 ? null : first, nextAfter: last < 5000 ? last : null };
}

/** The page around a position as the host reads it: a third of `limit` from it on, the rest before it. */
function pageAround(around: number, limit: number) {
  const end = Math.min(5001, around + Math.floor(limit / 3));
  return pageOf(Math.max(0, end - limit), end);
}

/**
 * A session whose newest page starts at position 5,000, so 5,000 older items are still to read (open,
 * or not yet opened).
 */
function longSession(options: { open: boolean } = { open: true }) {
  const setup = setupStore(options.open ? { openSession: 's1' } : {});
  setup.link.answer('session.get', ({ sessionId, around }) => ({
    ok: true,
    result: {
      session: session({ sessionId, title: 'Long' }),
      transcript: around === undefined ? pageOf(5000, 5001) : pageAround(around, 120),
      activeTurn: null,
      queue: [],
      runProgress: null,
    },
  }));
  setup.link.answer('transcript.page', ({ before, after, around, limit = 100 }) => {
    if (around !== undefined) return { ok: true, result: pageAround(around, limit) };
    const first = after === undefined ? Math.max(0, (before ?? 0) - limit) : after + 1;
    const end = after === undefined ? (before ?? 0) : Math.min(5001, after + 1 + limit);
    return { ok: true, result: pageOf(first, end) };
  });
  return setup;
}

function hitAt(position: number): MessageSearchHit {
  return {
    sessionId: 's1',
    sessionTitle: 'Long',
    archived: false,
    itemId: `u${position}`,
    position,
    kind: 'user_message',
    snippet: [{ text: 'older', hit: true }],
    createdAt: 0,
  };
}

describe('reading older pages', () => {
  it('reads 100 items at a time when scrolling, and up to 500 on the way to a far search hit', async () => {
    const { link, store } = longSession();
    await vi.waitFor(() => expect(store.getState().transcripts.s1?.status).toBe('ready'));
    await store.getState().refreshSession('s1');
    await vi.waitFor(() => expect(store.getState().transcripts.s1?.nextBefore).toBe(5000));

    await store.getState().loadOlder('s1');
    expect(link.callsOf('transcript.page').at(-1)).toEqual({ sessionId: 's1', before: 5000, limit: 100 });

    await store.getState().loadOlder('s1', 1234);
    expect(link.callsOf('transcript.page').at(-1)).toEqual({ sessionId: 's1', before: 4900, limit: 500 });

    // Close to the hit, only what reaches it (but never less than a scroll's page).
    await store.getState().loadOlder('s1', 4350);
    expect(link.callsOf('transcript.page').at(-1)).toEqual({ sessionId: 's1', before: 4400, limit: 100 });
    expect(store.getState().transcripts.s1?.nextBefore).toBe(4300);
  });

  it('a far hit opens a window around it in one page; scrolling down reads newer pages until it is live again', async () => {
    const { link, store } = longSession();
    await vi.waitFor(() => expect(store.getState().transcripts.s1?.status).toBe('ready'));
    await store.getState().refreshSession('s1');
    await vi.waitFor(() => expect(store.getState().transcripts.s1?.nextBefore).toBe(5000));
    const calls = link.callsOf('transcript.page').length;
    await store.getState().loadAround('s1', 1234);
    expect(link.callsOf('transcript.page').slice(calls)).toEqual([{ sessionId: 's1', around: 1234, limit: 120 }]);
    expect(store.getState().transcripts.s1?.itemIds).toContain('u1234');
    expect(store.getState().transcripts.s1?.itemIds).not.toContain('u5000');
    expect(store.getState().transcripts.s1?.newerAfter).toBe(1273);

    await store.getState().loadNewer('s1');
    expect(link.callsOf('transcript.page').at(-1)).toEqual({ sessionId: 's1', after: 1273, limit: 100 });
    expect(store.getState().transcripts.s1?.itemIds.at(-1)).toBe('u1373');
    expect(store.getState().transcripts.s1?.newerAfter).toBe(1373);

    // Leaving the window reads the newest again.
    await store.getState().jumpToNewest('s1');
    expect(store.getState().transcripts.s1?.newerAfter).toBeNull();
    expect(store.getState().transcripts.s1?.itemIds).toEqual(['u5000']);
  });
});

describe('opening a session at a search hit', () => {
  it('reads the page around the hit with the session, in one request, and opens there as a window', async () => {
    const { link, store } = longSession({ open: false });
    store.getState().openHit(hitAt(1234));
    await vi.waitFor(() => expect(store.getState().transcripts.s1?.status).toBe('ready'));
    expect(link.callsOf('session.get')).toEqual([{ sessionId: 's1', around: 1234 }]);
    expect(link.callsOf('transcript.page')).toEqual([]);
    const opened = store.getState().transcripts.s1;
    expect(opened?.itemIds).toContain('u1234');
    expect(opened?.itemIds).not.toContain('u5000');
    expect(opened).toMatchObject({ nextBefore: 1154, newerAfter: 1273, following: false });

    // A later snapshot (a reconnect) reads the newest page and leaves the window where the person reads.
    await store.getState().refreshSession('s1');
    expect(link.callsOf('session.get').at(-1)).toEqual({ sessionId: 's1' });
    expect(store.getState().transcripts.s1?.itemIds).toEqual(opened?.itemIds);
  });

  it('opens live when the page around the hit reaches the newest message', async () => {
    const { link, store } = longSession({ open: false });
    store.getState().openHit(hitAt(4990));
    await vi.waitFor(() => expect(store.getState().transcripts.s1?.status).toBe('ready'));
    expect(link.callsOf('session.get')).toEqual([{ sessionId: 's1', around: 4990 }]);
    expect(store.getState().transcripts.s1?.itemIds.at(-1)).toBe('u5000');
    expect(store.getState().transcripts.s1).toMatchObject({ newerAfter: null, following: true });
  });

  it('reads the newest page for a session already open, and for a focused message whose position is not known', async () => {
    const { link, store } = longSession({ open: false });
    store.setState({ focusedHit: { sessionId: 's1', itemId: 'u1234', position: null } });
    store.getState().selectSession('s1');
    await vi.waitFor(() => expect(store.getState().transcripts.s1?.status).toBe('ready'));
    expect(link.callsOf('session.get')).toEqual([{ sessionId: 's1' }]);

    store.getState().openHit(hitAt(1234));
    await store.getState().refreshSession('s1');
    expect(link.callsOf('session.get').at(-1)).toEqual({ sessionId: 's1' });
  });
});
