import { describe, expect, it, vi } from 'vitest';
import { CANNOT_STOP_NOTICE, NOT_SENT_NOTICE } from './composer-slice';
import { queued, session } from './reducers/record-fixtures';
import { TOAST_MS } from './ui-slice';
import { setupStore as setup } from './test-store';

describe('the app store', () => {
  it('loads the session list and reopens the session the address names', async () => {
    const { store } = setup({ openSession: 's1' });
    await vi.waitFor(() => expect(store.getState().transcripts.s1?.status).toBe('ready'));
    expect(store.getState().sessions.listIds).toEqual(['s1']);
    expect(store.getState().selectedSessionId).toBe('s1');
  });

  it('applies a burst of deltas once per frame', async () => {
    const { store, link, frames } = setup({ openSession: 's1' });
    await vi.waitFor(() => expect(store.getState().transcripts.s1?.status).toBe('ready'));
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    let length = 3;
    for (const text of ['l', 'o', ',', ' ', 'w', 'o', 'r', 'l', 'd']) {
      length += 1;
      link.push({ kind: 'transcript.delta', sessionId: 's1', itemId: 'a1', text, length });
    }
    expect(listener).not.toHaveBeenCalled();
    expect(frames.pending).toBe(1);
    frames.flush();
    expect(listener).toHaveBeenCalledTimes(1);
    expect(store.getState().transcripts.s1?.itemsById.a1?.text).toBe('Hello, world');
    unsubscribe();
  });

  it('shows a host notice (the disk is full) as a toast', async () => {
    const { store, link, frames } = setup({ openSession: 's1' });
    await vi.waitFor(() => expect(store.getState().transcripts.s1?.status).toBe('ready'));
    link.push({ kind: 'host.notice', code: 'storage_full', sessionId: 's1', message: 'The disk is full.' });
    frames.flush();
    expect(store.getState().toasts.map((toast) => toast.message)).toEqual(['The disk is full.']);
  });

  it('re-reads the snapshot when a delta does not line up', async () => {
    const { store, link, frames } = setup({ openSession: 's1' });
    await vi.waitFor(() => expect(store.getState().transcripts.s1?.status).toBe('ready'));
    const reads = link.callsOf('session.get').length;
    link.push({ kind: 'transcript.delta', sessionId: 's1', itemId: 'a1', text: 'lo', length: 99 });
    frames.flush();
    await vi.waitFor(() => expect(link.callsOf('session.get').length).toBe(reads + 1));
    await vi.waitFor(() => expect(store.getState().transcripts.s1?.stale).toBe(false));
    expect(store.getState().transcripts.s1?.itemsById.a1?.text).toBe('Hel');
  });

  it('resyncs after a gap in seq and after a reconnect', async () => {
    const { store, link } = setup({ openSession: 's1' });
    await vi.waitFor(() => expect(store.getState().transcripts.s1?.status).toBe('ready'));
    const lists = () => link.callsOf('session.list').length;
    const before = lists();
    link.push({ kind: 'session.changed', session: session({ sessionId: 's1', revision: 2 }) }, 10);
    link.push({ kind: 'session.changed', session: session({ sessionId: 's1', revision: 3 }) }, 12);
    await vi.waitFor(() => expect(lists()).toBe(before + 1));
    link.setConnection({ status: 'reconnecting', hostEpoch: 'epoch-1', generation: 1, problem: null });
    expect(store.getState().connection.status).toBe('reconnecting');
    link.setConnection({ status: 'open', hostEpoch: 'epoch-2', generation: 2, problem: null });
    await vi.waitFor(() => expect(lists()).toBe(before + 2));
  });

  it('sends every message with one operation, turn.message.submit, whatever the busy flag says: the host starts or queues it', async () => {
    const { store, link } = setup();
    await vi.waitFor(() => expect(store.getState().sessions.listLoaded).toBe(true));
    // The flag says idle, but the session got busy meanwhile: the host queues the message, nothing is retried.
    link.answer('turn.message.submit', ({ messageId, text }) => ({
      ok: true,
      result: { message: queued({ messageId, text }), disposition: 'queued' as const },
    }));
    store.getState().setDraft('s1', 'hello');
    await store.getState().sendDraft('s1');
    expect(link.callsOf('turn.message.submit')).toEqual([
      { sessionId: 's1', messageId: 'id-1', text: 'hello', placement: 'next_turn' },
    ]);
    expect(store.getState().readDraft('s1')).toBe('');

    // The flag says running, but the turn ended meanwhile: the host starts a turn with it.
    link.push({ kind: 'session.changed', session: session({ sessionId: 's1', activity: 'running', revision: 2 }) });
    store.getState().flushEvents();
    link.answer('turn.message.submit', ({ messageId, text }) => ({
      ok: true,
      result: {
        message: queued({ messageId, text, state: 'started', turnId: messageId }),
        disposition: 'started' as const,
      },
    }));
    store.getState().setDraft('s1', 'and then?');
    await store.getState().sendDraft('s1');
    expect(link.callsOf('turn.message.submit').at(-1)).toEqual({
      sessionId: 's1',
      messageId: 'id-2',
      text: 'and then?',
      placement: 'next_turn',
    });
    expect(link.callsOf('turn.start')).toEqual([]);
  });

  it('puts the text back and shows the host’s message when sending fails', async () => {
    const { store, link } = setup();
    link.answer('turn.message.submit', () => ({
      ok: false,
      error: { code: 'session_archived', message: 'This session is archived.' },
    }));
    store.getState().setDraft('s1', 'hello');
    await store.getState().sendDraft('s1');
    expect(store.getState().readDraft('s1')).toBe('hello');
    expect(store.getState().toasts.map((toast) => toast.message)).toEqual(['This session is archived.']);
  });

  it('leaves an unreachable host to the banner instead of a toast once the link has given up', async () => {
    const { store, link } = setup();
    link.setConnection({
      status: 'failed',
      hostEpoch: null,
      generation: 1,
      problem: 'Cairn refused the access token.',
    });
    store.getState().reportFailure({ code: 'operation_unavailable', message: 'Cairn refused the access token.' });
    expect(store.getState().toasts).toEqual([]);
    store.getState().reportFailure({ code: 'not_found', message: 'Gone.' });
    expect(store.getState().toasts.map((toast) => toast.message)).toEqual(['Gone.']);
  });

  it('while the host is unreachable, Send keeps the draft and says so, Stop says it cannot reach the host; the notices go on reconnect', async () => {
    const { store, link } = setup();
    await vi.waitFor(() => expect(store.getState().sessions.listLoaded).toBe(true));
    link.setConnection({ status: 'reconnecting', hostEpoch: 'epoch-1', generation: 1, problem: null });
    store.getState().setDraft('s1', 'hello');
    await store.getState().sendDraft('s1');
    expect(link.callsOf('turn.message.submit')).toEqual([]);
    expect(store.getState().readDraft('s1')).toBe('hello');
    expect(store.getState().composerNotices.s1).toBe(NOT_SENT_NOTICE);
    await store.getState().stopTurn('s1');
    expect(link.callsOf('turn.stop')).toEqual([]);
    expect(store.getState().composerNotices.s1).toBe(CANNOT_STOP_NOTICE);
    await store.getState().resumeTurn('s1', 't1');
    expect(link.callsOf('turn.resume')).toEqual([]);
    expect(store.getState().toasts).toEqual([]);

    link.setConnection({ status: 'open', hostEpoch: 'epoch-2', generation: 2, problem: null });
    expect(store.getState().composerNotices).toEqual({});
    expect(store.getState().readDraft('s1')).toBe('hello');
  });

  it('a toast goes by itself after TOAST_MS, or sooner when dismissed', () => {
    vi.useFakeTimers();
    try {
      const { store } = setup();
      store.getState().showError('First problem.');
      vi.advanceTimersByTime(TOAST_MS / 2);
      store.getState().showError('Second problem.');
      expect(store.getState().toasts.map((toast) => toast.message)).toEqual(['First problem.', 'Second problem.']);
      vi.advanceTimersByTime(TOAST_MS / 2);
      expect(store.getState().toasts.map((toast) => toast.message)).toEqual(['Second problem.']);
      store.getState().dismissToast(store.getState().toasts[0]!.id);
      expect(store.getState().toasts).toEqual([]);
      vi.advanceTimersByTime(TOAST_MS);
      expect(store.getState().toasts).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('puts follow-ups cancelled by Stop back into the composer', async () => {
    const { store, link } = setup();
    link.answer('turn.stop', () => ({
      ok: true,
      result: {
        outcome: 'stopped' as const,
        turn: null,
        cancelledMessages: [
          queued({ messageId: 'm1', text: 'first', state: 'cancelled' }),
          queued({ messageId: 'm2', text: 'second', state: 'cancelled' }),
        ],
      },
    }));
    store.getState().setDraft('s1', 'typing');
    await store.getState().stopTurn('s1');
    expect(store.getState().readDraft('s1')).toBe('first\n\nsecond\n\ntyping');
  });

  it('closes a session that was removed elsewhere', async () => {
    const { store, link, frames, location } = setup({ openSession: 's1' });
    await vi.waitFor(() => expect(store.getState().transcripts.s1?.status).toBe('ready'));
    link.push({ kind: 'session.removed', sessionId: 's1' });
    frames.flush();
    expect(store.getState().selectedSessionId).toBeNull();
    expect(store.getState().sessions.listIds).toEqual([]);
    expect(location.readSessionId()).toBeNull();
  });

  it('renames with the revision it knows', async () => {
    const { store, link } = setup();
    await vi.waitFor(() => expect(store.getState().sessions.listLoaded).toBe(true));
    link.answer('session.rename', ({ sessionId, title }) => ({
      ok: true,
      result: { session: session({ sessionId, title, revision: 2 }) },
    }));
    await store.getState().renameSession('s1', '  Better title ');
    expect(link.callsOf('session.rename')).toEqual([{ sessionId: 's1', title: 'Better title', expectedRevision: 1 }]);
    expect(store.getState().sessions.byId.s1?.title).toBe('Better title');
  });
});
