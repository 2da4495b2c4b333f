import { describe, expect, it } from 'vitest';
import type { TranscriptPage } from '../../../src-shared/model';
import { events, item, turn } from './record-fixtures';
import type { TranscriptsState } from './transcript-reducer';
import { appendNewerPage, applyWindowPage } from '../transcript-window';
import {
  applySnapshotPage,
  codePointLength,
  LIVE_ITEMS_KEPT,
  LIVE_ITEMS_MIN,
  LIVE_TEXT_KEPT,
  loadingTranscript,
  prependOlderPage,
  reduceTranscriptEvent,
  TEXT_TRIM_STEP,
  TRIM_STEP,
  type TranscriptState,
} from './transcript-reducer';

function page(positions: number[], nextBefore: number | null, extra: Partial<TranscriptPage> = {}): TranscriptPage {
  return {
    items: positions.map((position) => item({ itemId: `i${position}`, position, text: `text ${position}` })),
    turns: [turn({ turnId: 't1' })],
    nextBefore,
    ...extra,
  };
}

function ready(positions: number[], nextBefore: number | null): TranscriptsState {
  return { s1: applySnapshotPage(undefined, 's1', page(positions, nextBefore)) };
}

function apply(state: TranscriptsState, ...bodies: Parameters<typeof events>): TranscriptsState {
  return events(...bodies).reduce(reduceTranscriptEvent, state);
}

describe('transcript reducer', () => {
  it('normalises a snapshot page: items by id, ids by position, turns by id', () => {
    const state = ready([3, 4, 5], 3).s1;
    expect(state?.itemIds).toEqual(['i3', 'i4', 'i5']);
    expect(state?.itemsById.i4?.text).toBe('text 4');
    expect(state?.turnsById.t1?.status).toBe('completed');
    expect(state?.nextBefore).toBe(3);
  });

  it('appends items, streams deltas into them and finalizes them', () => {
    const next = apply(
      ready([0], null),
      { kind: 'transcript.appended', item: item({ itemId: 'a', position: 1, text: 'Hel', state: 'streaming' }) },
      { kind: 'transcript.delta', sessionId: 's1', itemId: 'a', text: 'lo', length: 5 },
      { kind: 'transcript.finalized', sessionId: 's1', itemIds: ['a'] },
    ).s1;
    expect(next?.itemIds).toEqual(['i0', 'a']);
    expect(next?.itemsById.a).toMatchObject({ text: 'Hello', state: 'final' });
    expect(next?.stale).toBe(false);
  });

  it('a turn that stops running leaves no message streaming (the typing cursor goes), whether or not the host said so', () => {
    const streaming = apply(
      ready([0], null),
      {
        kind: 'transcript.appended',
        item: item({ itemId: 'a', position: 1, turnId: 't2', text: 'Before I go on', state: 'streaming' }),
      },
      {
        kind: 'transcript.appended',
        item: item({ itemId: 'b', position: 2, turnId: 't2', kind: 'tool_call', text: 'ask_user' }),
      },
    );
    const running = apply(streaming, { kind: 'turn.changed', turn: turn({ turnId: 't2', status: 'running' }) });
    expect(running.s1?.itemsById.a?.state).toBe('streaming');
    for (const status of ['waiting', 'cancelled', 'failed', 'interrupted', 'completed'] as const) {
      const ended = apply(streaming, { kind: 'turn.changed', turn: turn({ turnId: 't2', status }) });
      expect(ended.s1?.itemsById.a?.state).toBe('final');
      expect(ended.s1?.itemsById.a?.text).toBe('Before I go on');
    }
  });

  it('marks the transcript stale when a delta does not line up with the host length', () => {
    const start = apply(ready([0], null), {
      kind: 'transcript.appended',
      item: item({ itemId: 'a', position: 1, text: 'ab', state: 'streaming' }),
    });
    const missed = apply(start, { kind: 'transcript.delta', sessionId: 's1', itemId: 'a', text: 'd', length: 4 });
    expect(missed.s1?.stale).toBe(true);
    expect(missed.s1?.itemsById.a?.text).toBe('abd');
  });

  it('marks the transcript stale when a delta names an item it does not have', () => {
    const next = apply(ready([0], null), {
      kind: 'transcript.delta',
      sessionId: 's1',
      itemId: 'ghost',
      text: 'x',
      length: 1,
    });
    expect(next.s1?.stale).toBe(true);
  });

  it('counts lengths in code points, as the host does', () => {
    expect(codePointLength('a😀b')).toBe(3);
    expect(codePointLength('“é”')).toBe(3);
    const start = apply(ready([0], null), {
      kind: 'transcript.appended',
      item: item({ itemId: 'a', position: 1, text: '😀', state: 'streaming' }),
    });
    const next = apply(start, { kind: 'transcript.delta', sessionId: 's1', itemId: 'a', text: '😀!', length: 3 });
    expect(next.s1?.stale).toBe(false);
  });

  it('records turn changes and ignores sessions that are not loaded or still loading', () => {
    const running = turn({ turnId: 't2', status: 'running' });
    const next = apply(ready([0], null), { kind: 'turn.changed', turn: running });
    expect(next.s1?.turnsById.t2?.status).toBe('running');
    const loading: TranscriptsState = { s1: loadingTranscript('s1') };
    expect(apply(loading, { kind: 'turn.changed', turn: running })).toBe(loading);
    const other = apply(next, { kind: 'turn.changed', turn: turn({ turnId: 'x', sessionId: 's9' }) });
    expect(other).toBe(next);
  });

  it('keeps positions ordered when an item arrives out of order', () => {
    const next = apply(ready([1, 3], null), { kind: 'transcript.appended', item: item({ itemId: 'i2', position: 2 }) });
    expect(next.s1?.itemIds).toEqual(['i1', 'i2', 'i3']);
  });

  it('prepends an older page without duplicating what is loaded', () => {
    const state = ready([3, 4], 3).s1!;
    const next = prependOlderPage(state, page([1, 2, 3], 1));
    expect(next.itemIds).toEqual(['i1', 'i2', 'i3', 'i4']);
    expect(next.nextBefore).toBe(1);
  });

  it('keeps older loaded pages across a resync when they join the new snapshot', () => {
    const scrolledBack = prependOlderPage(ready([3, 4], 3).s1!, page([1, 2], null));
    const joined = applySnapshotPage(scrolledBack, 's1', page([5, 6], 5));
    expect(joined.itemIds).toEqual(['i1', 'i2', 'i3', 'i4', 'i5', 'i6']);
    expect(joined.nextBefore).toBeNull();
    const hole = applySnapshotPage(scrolledBack, 's1', page([8, 9], 8));
    expect(hole.itemIds).toEqual(['i8', 'i9']);
    expect(hole.nextBefore).toBe(8);
  });

  it('forgets a removed session', () => {
    const next = apply(ready([0], null), { kind: 'session.removed', sessionId: 's1' });
    expect(next.s1).toBeUndefined();
  });

  describe('a window around a far search hit', () => {
    const window = () => ({ s1: applyWindowPage('s1', page([40, 41, 42], 40, { nextAfter: 42 })) });

    it('holds the window and grows it towards the newest; at the newest it is live again', () => {
      const state = window().s1;
      expect(state).toMatchObject({ itemIds: ['i40', 'i41', 'i42'], nextBefore: 40, newerAfter: 42 });
      const grown = appendNewerPage(state, page([43, 44], 43, { nextAfter: 44 }));
      expect(grown).toMatchObject({ itemIds: ['i40', 'i41', 'i42', 'i43', 'i44'], newerAfter: 44 });
      expect(appendNewerPage(grown, page([45], 45, { nextAfter: null })).newerAfter).toBeNull();
    });

    it('shows nothing that streams beyond the window, and stays where the person reads when a snapshot arrives', () => {
      const beyond = apply(
        window(),
        { kind: 'transcript.appended', item: item({ itemId: 'late', position: 900, state: 'streaming' }) },
        { kind: 'transcript.delta', sessionId: 's1', itemId: 'late', text: 'more', length: 4 },
      ).s1;
      expect(beyond?.itemIds).toEqual(['i40', 'i41', 'i42']);
      expect(beyond?.stale).toBe(false);
      const resynced = applySnapshotPage(beyond, 's1', page([899, 900], 899));
      expect(resynced.itemIds).toEqual(['i40', 'i41', 'i42']);
      expect(resynced.newerAfter).toBe(42);
    });

    it('a new message from the person leaves the window for the newest (read again as a snapshot)', () => {
      const sent = apply(window(), {
        kind: 'transcript.appended',
        item: item({ itemId: 'mine', position: 901, kind: 'user_message', text: 'next' }),
      }).s1;
      expect(sent).toMatchObject({ newerAfter: null, stale: true });
      const newest = applySnapshotPage(sent, 's1', page([900, 901], 900));
      expect(newest.itemIds).toEqual(['i900', 'i901']);
    });
  });

  describe('a page left open while its session streams', () => {
    /** Messages streamed in turns of five, the last turn still running. */
    function stream(
      start: TranscriptsState,
      following: boolean,
      count: number,
      message: Partial<Parameters<typeof item>[0]> = { text: 'x' },
    ): TranscriptState {
      let state: TranscriptsState = { s1: { ...start.s1!, following } };
      for (let position = 1; position <= count; position += 1) {
        const turnId = `t${Math.ceil(position / 5) + 1}`;
        state = apply(
          state,
          { kind: 'turn.changed', turn: turn({ turnId, status: position === count ? 'running' : 'completed' }) },
          { kind: 'transcript.appended', item: item({ ...message, itemId: `m${position}`, position, turnId }) },
        );
      }
      return state.s1!;
    }

    const heldText = (state: TranscriptState) =>
      state.itemIds.reduce((sum, id) => {
        const { text, data } = state.itemsById[id]!;
        return sum + text.length + (typeof data?.output === 'string' ? data.output.length : 0);
      }, 0);

    it('holds at most a million characters of long answers, however few messages that is', () => {
      const held = stream(ready([0], null), true, 400, { text: 'a'.repeat(50_000) });
      expect(heldText(held)).toBeLessThanOrEqual(LIVE_TEXT_KEPT + TEXT_TRIM_STEP);
      expect(held.itemIds.length).toBeLessThan(LIVE_ITEMS_KEPT);
      expect(held.itemIds.length).toBeGreaterThanOrEqual(LIVE_TEXT_KEPT / 50_000);
      expect(held.itemIds.at(-1)).toBe('m400');
      expect(held.nextBefore).toBe(held.itemsById[held.itemIds[0]!]!.position);
    });

    it('counts a tool result’s output as text held, and keeps the newest messages however large they are', () => {
      const held = stream(ready([0], null), true, 100, {
        kind: 'tool_result',
        text: '',
        data: { toolCallId: 'c', toolName: 'run_shell', output: 'o'.repeat(400_000), isError: false },
      });
      expect(held.itemIds.length).toBeGreaterThanOrEqual(LIVE_ITEMS_MIN);
      expect(held.itemIds.length).toBeLessThan(LIVE_ITEMS_MIN + 5);
      expect(held.itemIds.at(-1)).toBe('m100');
    });

    it('holds at most the newest messages and their turns, and reads older ones from where it let go', () => {
      const held = stream(ready([0], null), true, 5_000);
      expect(held.itemIds.length).toBeLessThanOrEqual(LIVE_ITEMS_KEPT + TRIM_STEP);
      expect(Object.keys(held.itemsById)).toHaveLength(held.itemIds.length);
      expect(Object.keys(held.turnsById).length).toBeLessThanOrEqual((LIVE_ITEMS_KEPT + TRIM_STEP) / 5 + 1);
      expect(held.itemIds.at(-1)).toBe('m5000');
      expect(held.turnsById.t1001?.status).toBe('running');
      const first = held.itemsById[held.itemIds[0]!]!;
      expect(held.nextBefore).toBe(first.position);
      const older = prependOlderPage(held, page([first.position - 2, first.position - 1], first.position - 2));
      expect(older.itemIds.slice(0, 3)).toEqual([`i${first.position - 2}`, `i${first.position - 1}`, first.itemId]);
    });

    it('keeps everything while the person reads further back, and lets go once they follow again', () => {
      const reading = stream(ready([0], null), false, 1_000);
      expect(reading.itemIds).toHaveLength(1_001);
      const following = apply(
        { s1: { ...reading, following: true } },
        { kind: 'transcript.appended', item: item({ itemId: 'm1001', position: 1_001, turnId: 't201' }) },
      ).s1!;
      expect(following.itemIds).toHaveLength(LIVE_ITEMS_KEPT);
      expect(following.nextBefore).toBe(1_001 - LIVE_ITEMS_KEPT + 1);
    });

    it('never lets go of a window around a search hit', () => {
      const window = applyWindowPage('s1', { ...page([10, 11], 10), nextAfter: 11 });
      const next = apply(
        { s1: { ...window, following: true } },
        { kind: 'transcript.appended', item: item({ itemId: 'late', position: 9_000 }) },
      ).s1!;
      expect(next.itemIds).toEqual(['i10', 'i11']);
    });
  });
});
