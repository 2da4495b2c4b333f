import { describe, expect, it, vi } from 'vitest';
import { item, session } from './reducers/record-fixtures';
import { setupStore } from './test-store';

/** A session whose newest page starts at position 5,000, so 5,000 older items are still to read. */
function longSession() {
  const setup = setupStore({ openSession: 's1' });
  setup.link.answer('session.get', ({ sessionId }) => ({
    ok: true,
    result: {
      session: session({ sessionId, title: 'Long' }),
      transcript: {
        items: [item({ itemId: 'u5000', position: 5000, kind: 'user_message', text: 'newest' })],
        turns: [],
        nextBefore: 5000,
      },
      activeTurn: null,
      queue: [],
      runProgress: null,
    },
  }));
  setup.link.answer('transcript.page', ({ before, after, limit = 100 }) => {
    const first = after === undefined ? Math.max(0, (before ?? 0) - limit) : after + 1;
    const end = after === undefined ? (before ?? 0) : Math.min(5001, after + 1 + limit);
    const items = Array.from({ length: end - first }, (_, index) =>
      item({ itemId: `u${first + index}`, position: first + index, kind: 'user_message', text: 'older' }),
    );
    const last = end - 1;
    return {
      ok: true,
      result: { items, turns: [], nextBefore: first === 0 ? null : first, nextAfter: last < 5000 ? last : null },
    };
  });
  return setup;
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
    expect(link.callsOf('transcript.page').slice(calls)).toEqual([{ sessionId: 's1', before: 1275, limit: 120 }]);
    expect(store.getState().transcripts.s1?.itemIds).toContain('u1234');
    expect(store.getState().transcripts.s1?.itemIds).not.toContain('u5000');
    expect(store.getState().transcripts.s1?.newerAfter).toBe(1274);

    await store.getState().loadNewer('s1');
    expect(link.callsOf('transcript.page').at(-1)).toEqual({ sessionId: 's1', after: 1274, limit: 100 });
    expect(store.getState().transcripts.s1?.itemIds.at(-1)).toBe('u1374');
    expect(store.getState().transcripts.s1?.newerAfter).toBe(1374);

    // Leaving the window reads the newest again.
    await store.getState().jumpToNewest('s1');
    expect(store.getState().transcripts.s1?.newerAfter).toBeNull();
    expect(store.getState().transcripts.s1?.itemIds).toEqual(['u5000']);
  });
});
