import { describe, expect, it } from 'vitest';
import { session } from './record-fixtures';
import {
  applySessionList,
  EMPTY_SESSIONS,
  reduceSessionEvent,
  sessionMatchesView,
  upsertSession,
} from './sessions-reducer';

const listed = applySessionList(
  EMPTY_SESSIONS,
  { archived: false, query: '' },
  {
    sessions: [session({ sessionId: 'b', updatedAt: 300 }), session({ sessionId: 'a', updatedAt: 200 })],
    nextCursor: null,
  },
  false,
);

describe('sessions reducer', () => {
  it('lists a session.list answer in the host order', () => {
    expect(listed.listIds).toEqual(['b', 'a']);
    expect(listed.listLoaded).toBe(true);
  });

  it('moves a changed session to the top when its activity is newest', () => {
    const next = reduceSessionEvent(listed, {
      kind: 'session.changed',
      session: session({ sessionId: 'a', updatedAt: 400, revision: 2, activity: 'running' }),
      seq: 1,
      hostEpoch: 'e',
    });
    expect(next.listIds).toEqual(['a', 'b']);
    expect(next.byId.a?.activity).toBe('running');
  });

  it('adds a new session in order and removes one on session.removed', () => {
    const added = upsertSession(listed, session({ sessionId: 'c', updatedAt: 250 }));
    expect(added.listIds).toEqual(['b', 'c', 'a']);
    const removed = reduceSessionEvent(added, { kind: 'session.removed', sessionId: 'b', seq: 2, hostEpoch: 'e' });
    expect(removed.listIds).toEqual(['c', 'a']);
    expect(removed.byId.b).toBeUndefined();
  });

  it('drops an archived session from the active list but keeps its record', () => {
    const next = upsertSession(listed, session({ sessionId: 'a', archived: true, updatedAt: 500, revision: 3 }));
    expect(next.listIds).toEqual(['b']);
    expect(next.byId.a?.archived).toBe(true);
  });

  it('never lets an older revision replace a newer one', () => {
    const newer = upsertSession(listed, session({ sessionId: 'a', title: 'Renamed', revision: 5, updatedAt: 600 }));
    const stale = upsertSession(newer, session({ sessionId: 'a', title: 'Old', revision: 4, updatedAt: 550 }));
    expect(stale.byId.a?.title).toBe('Renamed');
  });

  it('filters by the search query like the host does', () => {
    const view = { archived: false, query: '  ReP ' };
    expect(sessionMatchesView(session({ sessionId: 'x', title: 'Weekly report' }), view)).toBe(true);
    expect(sessionMatchesView(session({ sessionId: 'x', title: 'Other' }), view)).toBe(false);
    const filtered = { ...listed, view };
    expect(upsertSession(filtered, session({ sessionId: 'z', title: 'Nope', updatedAt: 900 })).listIds).toEqual([
      'b',
      'a',
    ]);
  });

  it('leaves a session that sorts past the loaded page for the next page', () => {
    const paged = { ...listed, nextCursor: 'more' };
    expect(upsertSession(paged, session({ sessionId: 'old', updatedAt: 10 })).listIds).toEqual(['b', 'a']);
  });

  it('appends a further page without duplicates', () => {
    const more = applySessionList(
      { ...listed, nextCursor: 'c1' },
      listed.view,
      {
        sessions: [session({ sessionId: 'a', updatedAt: 200 }), session({ sessionId: 'z', updatedAt: 100 })],
        nextCursor: null,
      },
      true,
    );
    expect(more.listIds).toEqual(['b', 'a', 'z']);
    expect(more.nextCursor).toBeNull();
  });
});
