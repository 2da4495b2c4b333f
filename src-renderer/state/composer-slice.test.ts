import { describe, expect, it, vi } from 'vitest';
import { memoryDraftStorage } from '../platform/draft-storage';
import { queued } from './reducers/record-fixtures';
import { setupStore } from './test-store';

const TYPED = 'twenty characters ok';

describe('the composer’s drafts', () => {
  it('a keystroke runs no selector: typing 20 characters tells no subscriber (a transcript row’s selector among them), and Send sends every character', async () => {
    const { store, link } = setupStore({ openSession: 's1' });
    await vi.waitFor(() => expect(store.getState().transcripts.s1?.status).toBe('ready'));
    // What a transcript row does: a selector run on every change of the store.
    const rowSelector = vi.fn((state: ReturnType<typeof store.getState>) => state.transcripts.s1?.itemsById.a1);
    const unsubscribe = store.subscribe((state) => rowSelector(state));

    for (let length = 1; length <= TYPED.length; length += 1) store.getState().typeDraft('s1', TYPED.slice(0, length));

    expect(rowSelector).not.toHaveBeenCalled();
    expect(store.getState().readDraft('s1')).toBe(TYPED);
    link.answer('turn.message.submit', ({ messageId, text }) => ({
      ok: true,
      result: {
        message: queued({ messageId, text, state: 'started', turnId: messageId }),
        disposition: 'started' as const,
      },
    }));
    await store.getState().sendDraft('s1');
    expect(link.callsOf('turn.message.submit')).toEqual([expect.objectContaining({ sessionId: 's1', text: TYPED })]);
    expect(store.getState().readDraft('s1')).toBe('');
    unsubscribe();
  });

  it('text put into a draft from elsewhere reaches the composer watching that session; typing does not echo back', async () => {
    const { store, link } = setupStore({ openSession: 's1' });
    const shown = vi.fn();
    const other = vi.fn();
    const stopWatching = store.getState().watchDraft('s1', shown);
    store.getState().watchDraft('s2', other);

    store.getState().typeDraft('s1', 'typing');
    expect(shown).not.toHaveBeenCalled();

    // Stop puts the follow-ups it cancelled back in front of what was typed.
    link.answer('turn.stop', () => ({
      ok: true,
      result: {
        outcome: 'stopped' as const,
        turn: null,
        cancelledMessages: [queued({ messageId: 'm1', text: 'first', state: 'cancelled' })],
      },
    }));
    await store.getState().stopTurn('s1');
    expect(shown).toHaveBeenLastCalledWith('first\n\ntyping');

    store.getState().setDraft('s1', '/release-notes ');
    expect(shown).toHaveBeenLastCalledWith('/release-notes ');
    expect(other).not.toHaveBeenCalled();

    stopWatching();
    store.getState().setDraft('s1', '');
    expect(shown).toHaveBeenCalledTimes(2);
  });

  it('a blank session the person only typed into is kept when they leave it', async () => {
    const { store, link } = setupStore();
    await vi.waitFor(() => expect(store.getState().sessions.listLoaded).toBe(true));
    link.answer('session.create', () => ({
      ok: true,
      result: { session: { ...store.getState().sessions.byId.s1!, sessionId: 's9', title: 'New session' } },
    }));
    link.answer('session.get', ({ sessionId }) => ({
      ok: true,
      result: {
        session: { ...store.getState().sessions.byId.s1!, sessionId, titleSource: 'default' as const },
        transcript: { items: [], turns: [], nextBefore: null },
        activeTurn: null,
        queue: [],
        runProgress: null,
      },
    }));
    await store.getState().createSession();
    await vi.waitFor(() => expect(store.getState().transcripts.s9?.status).toBe('ready'));
    store.getState().typeDraft('s9', 'a draft to come back to');

    store.getState().selectSession('s1');

    expect(link.callsOf('session.remove')).toEqual([]);
    expect(store.getState().sessions.byId.s9).toBeDefined();
  });

  it('a typed draft outlives a reload of the page (the window’s storage keeps it), and Send clears it there too', async () => {
    const storage = memoryDraftStorage();
    const first = setupStore({ openSession: 's1', draftStorage: storage });
    first.store.getState().typeDraft('s1', 'half a thought');
    first.store.getState().typeDraft('s2', 'another');

    const reloaded = setupStore({ openSession: 's1', draftStorage: storage });
    expect(reloaded.store.getState().readDraft('s1')).toBe('half a thought');
    expect(reloaded.store.getState().readDraft('s2')).toBe('another');
    reloaded.store.getState().typeDraft('s2', '');
    expect(setupStore({ draftStorage: storage }).store.getState().readDraft('s2')).toBe('');
    expect([...storage.entries.keys()].filter((key) => key.includes('composer-draft'))).toEqual([
      'cairn.composer-draft.s1',
    ]);
  });

  it('a removed session’s draft leaves the window’s storage; an archived one keeps its draft', async () => {
    const storage = memoryDraftStorage();
    const { store } = setupStore({ draftStorage: storage });
    store.getState().typeDraft('s1', 'for a session about to be deleted');
    store.getState().typeDraft('s2', 'for a session that is archived');
    store.getState().receiveEvent({ seq: 1, hostEpoch: 'e', kind: 'session.removed', sessionId: 's1' });
    store.getState().flushEvents();

    expect(store.getState().readDraft('s1')).toBe('');
    expect([...storage.entries.keys()].filter((key) => key.includes('composer-draft'))).toEqual([
      'cairn.composer-draft.s2',
    ]);
  });
});
