import type { ChangeEvent } from '../../../src-shared/events';
import { isActiveStatus, type TranscriptItem, type TranscriptPage, type TurnSummary } from '../../../src-shared/model';

/**
 * One session's transcript as far as it is loaded: the newest page plus any older pages read since —
 * or, after a jump to a search hit far back, a window around the hit that grows both ways and joins
 * the newest again once it reaches it (`newerAfter` null).
 */
export interface TranscriptState {
  readonly sessionId: string;
  /** `loading` until the first snapshot arrives; events are not applied before then (the snapshot covers them). */
  readonly status: 'loading' | 'ready';
  readonly itemsById: Readonly<Record<string, TranscriptItem>>;
  /** Item ids in ascending `position`. */
  readonly itemIds: readonly string[];
  readonly turnsById: Readonly<Record<string, TurnSummary>>;
  /** Pass as `before` to transcript.page for the next older page; null when the start is loaded. */
  readonly nextBefore: number | null;
  readonly loadingOlder: boolean;
  /** Pass as `after` to transcript.page for the next newer page; null when the newest is loaded (live events append). */
  readonly newerAfter: number | null;
  readonly loadingNewer: boolean;
  /** A streamed delta did not line up with the host's length: re-read the snapshot. */
  readonly stale: boolean;
  /**
   * Whether the view is at the newest message, following the stream (the view says so as the person
   * scrolls). While it is, messages older than the newest LIVE_ITEMS_KEPT are let go as new ones arrive
   * (read back with transcript.page when the person scrolls up), so a page left open on a session
   * that streams for hours holds a bounded transcript; while the person reads further back, nothing is.
   */
  readonly following: boolean;
}

/** The most messages a followed transcript keeps loaded; older ones are let go, TRIM_STEP at a time. */
export const LIVE_ITEMS_KEPT = 200;
/** Messages are let go in steps, so that the head of the list does not change with every message. */
export const TRIM_STEP = 50;
/**
 * The most text (UTF-16 code units, in messages and in tool calls' and results' data) a followed
 * transcript keeps loaded, so that messages of unusual size (long answers, large command outputs) do
 * not each hold hundreds of kilobytes until 200 of them are in memory; let go of TEXT_TRIM_STEP at a
 * time, and never below the newest LIVE_ITEMS_MIN messages, whatever their size.
 */
export const LIVE_TEXT_KEPT = 1_000_000;
export const TEXT_TRIM_STEP = 500_000;
export const LIVE_ITEMS_MIN = 20;

export type TranscriptsState = Readonly<Record<string, TranscriptState>>;

export function loadingTranscript(sessionId: string): TranscriptState {
  return {
    sessionId,
    status: 'loading',
    itemsById: {},
    itemIds: [],
    turnsById: {},
    nextBefore: null,
    loadingOlder: false,
    newerAfter: null,
    loadingNewer: false,
    stale: false,
    following: true,
  };
}

/**
 * Applies the newest page from a session.get snapshot. Items older than the page are kept when they
 * join it without a hole (history never changes once final), so a resync does not throw away pages
 * the person scrolled back through; everything from the page on is replaced by the snapshot. A
 * snapshot read around a search hit (`around`) that ends before the newest opens as a window there.
 */
export function applySnapshotPage(
  current: TranscriptState | undefined,
  sessionId: string,
  page: TranscriptPage,
): TranscriptState {
  // A window around a search hit stays where the person is reading; the newest page is beyond it.
  if (current !== undefined && current.status === 'ready' && current.newerAfter !== null)
    return { ...current, turnsById: mergeTurns(current.turnsById, page.turns) };
  const first = page.items[0];
  const keep: TranscriptItem[] = [];
  if (current !== undefined && current.status === 'ready' && first !== undefined) {
    const older = current.itemIds
      .map((id) => current.itemsById[id])
      .filter((item) => item !== undefined && item.position < first.position);
    const joins = older.at(-1)?.position === first.position - 1;
    if (joins) keep.push(...(older as TranscriptItem[]));
  }
  const items = [...keep, ...page.items];
  const itemsById: Record<string, TranscriptItem> = {};
  for (const item of items) itemsById[item.itemId] = item;
  const turnsById: Record<string, TurnSummary> = {};
  if (keep.length > 0 && current !== undefined) {
    for (const item of keep) {
      const turn = current.turnsById[item.turnId];
      if (turn !== undefined) turnsById[turn.turnId] = turn;
    }
  }
  for (const turn of page.turns) turnsById[turn.turnId] = turn;
  return {
    sessionId,
    status: 'ready',
    itemsById,
    itemIds: items.map((item) => item.itemId),
    turnsById,
    nextBefore: keep.length > 0 && current !== undefined ? current.nextBefore : page.nextBefore,
    loadingOlder: false,
    newerAfter: page.nextAfter ?? null,
    loadingNewer: false,
    stale: false,
    following: (page.nextAfter ?? null) === null && (current?.following ?? true),
  };
}

/** Puts an older page (transcript.page with `before`) in front of what is loaded. */
export function prependOlderPage(current: TranscriptState, page: TranscriptPage): TranscriptState {
  const firstLoaded = current.itemIds[0] === undefined ? undefined : current.itemsById[current.itemIds[0]];
  const older = page.items.filter(
    (item) =>
      current.itemsById[item.itemId] === undefined &&
      (firstLoaded === undefined || item.position < firstLoaded.position),
  );
  const itemsById = { ...current.itemsById };
  for (const item of older) itemsById[item.itemId] = item;
  return {
    ...current,
    itemsById,
    itemIds: [...older.map((item) => item.itemId), ...current.itemIds],
    turnsById: mergeTurns(current.turnsById, page.turns),
    nextBefore: page.nextBefore,
    loadingOlder: false,
  };
}

export function reduceTranscriptEvent(transcripts: TranscriptsState, event: ChangeEvent): TranscriptsState {
  switch (event.kind) {
    case 'transcript.appended':
      return update(transcripts, event.item.sessionId, (state) => letGoOfOldest(appendItem(state, event.item)));
    case 'transcript.delta':
      return update(transcripts, event.sessionId, (state) =>
        appendDelta(state, event.itemId, event.text, event.length),
      );
    case 'transcript.finalized':
      return update(transcripts, event.sessionId, (state) => finalizeItems(state, event.itemIds));
    case 'turn.changed':
      return applyTurn(transcripts, event.turn);
    case 'session.removed': {
      if (transcripts[event.sessionId] === undefined) return transcripts;
      const next = { ...transcripts };
      delete next[event.sessionId];
      return next;
    }
    default:
      return transcripts;
  }
}

/**
 * A turn's summary from an event or an operation's answer, for a loaded transcript. A turn that is
 * not running streams nothing: its messages still marked streaming (the host records them final but
 * does not always say so, e.g. when the turn stops to wait for an answer) become final here.
 */
export function applyTurn(transcripts: TranscriptsState, turn: TurnSummary): TranscriptsState {
  return update(transcripts, turn.sessionId, (state) => {
    const next = { ...state, turnsById: { ...state.turnsById, [turn.turnId]: turn } };
    return turn.status === 'running' ? next : finalizeItems(next, streamingItemsOf(state, turn.turnId));
  });
}

/** The turn's items still marked streaming; a turn's items are contiguous, so the scan stops once past them. */
function streamingItemsOf(state: TranscriptState, turnId: string): string[] {
  const found: string[] = [];
  let seen = false;
  for (let index = state.itemIds.length - 1; index >= 0; index -= 1) {
    const item = state.itemsById[state.itemIds[index]!];
    if (item?.turnId !== turnId) {
      if (seen) break;
      continue;
    }
    seen = true;
    if (item.state === 'streaming') found.push(item.itemId);
  }
  return found;
}

/**
 * The length the host reports with a delta, in its units: the host counts Unicode code points
 * (SQLite's length()), while a JavaScript string's length counts UTF-16 code units.
 */
export function codePointLength(text: string): number {
  let surrogatePairs = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code >= 0xdc00 && code <= 0xdfff && index > 0) {
      const previous = text.charCodeAt(index - 1);
      if (previous >= 0xd800 && previous <= 0xdbff) surrogatePairs += 1;
    }
  }
  return text.length - surrogatePairs;
}

function update(
  transcripts: TranscriptsState,
  sessionId: string,
  change: (state: TranscriptState) => TranscriptState,
): TranscriptsState {
  const state = transcripts[sessionId];
  if (state === undefined || state.status !== 'ready') return transcripts;
  const next = change(state);
  return next === state ? transcripts : { ...transcripts, [sessionId]: next };
}

function appendItem(state: TranscriptState, item: TranscriptItem): TranscriptState {
  if (state.newerAfter !== null && state.itemsById[item.itemId] === undefined) {
    // Beyond a window around a search hit: not shown until the window reaches the newest — except the
    // person's own new message, which brings the view back to the newest (read again as a snapshot).
    return item.kind === 'user_message' ? { ...state, newerAfter: null, stale: true } : state;
  }
  if (state.itemsById[item.itemId] !== undefined) {
    return { ...state, itemsById: { ...state.itemsById, [item.itemId]: item } };
  }
  const firstId = state.itemIds[0];
  const first = firstId === undefined ? undefined : state.itemsById[firstId];
  if (first !== undefined && state.nextBefore !== null && item.position < first.position) return state;
  const itemsById = { ...state.itemsById, [item.itemId]: item };
  const lastId = state.itemIds.at(-1);
  const last = lastId === undefined ? undefined : state.itemsById[lastId];
  if (last === undefined || last.position < item.position) {
    return { ...state, itemsById, itemIds: [...state.itemIds, item.itemId] };
  }
  const index = state.itemIds.findIndex((id) => (state.itemsById[id]?.position ?? 0) > item.position);
  const itemIds = [...state.itemIds];
  itemIds.splice(index === -1 ? itemIds.length : index, 0, item.itemId);
  return { ...state, itemsById, itemIds };
}

/**
 * A followed transcript past LIVE_ITEMS_KEPT + TRIM_STEP messages, or LIVE_TEXT_KEPT + TEXT_TRIM_STEP
 * of text, keeps only its newest messages within LIVE_ITEMS_KEPT and LIVE_TEXT_KEPT (at least
 * LIVE_ITEMS_MIN), and the turns those (or a running turn) need; the first kept message's position
 * becomes where older pages are read from. Not while the person reads further back, nor in a window
 * around a search hit.
 */
export function letGoOfOldest(state: TranscriptState): TranscriptState {
  if (!state.following || state.newerAfter !== null) return state;
  const sizes = state.itemIds.map((id) => heldText(state.itemsById[id]));
  const held = sizes.reduce((sum, size) => sum + size, 0);
  if (state.itemIds.length <= LIVE_ITEMS_KEPT + TRIM_STEP && held <= LIVE_TEXT_KEPT + TEXT_TRIM_STEP) return state;
  let keep = 0;
  let kept = 0;
  while (keep < Math.min(LIVE_ITEMS_KEPT, sizes.length)) {
    const size = sizes[sizes.length - 1 - keep] ?? 0;
    if (keep >= LIVE_ITEMS_MIN && kept + size > LIVE_TEXT_KEPT) break;
    kept += size;
    keep += 1;
  }
  const itemIds = state.itemIds.slice(state.itemIds.length - keep);
  const itemsById: Record<string, TranscriptItem> = {};
  for (const id of itemIds) {
    const item = state.itemsById[id];
    if (item !== undefined) itemsById[id] = item;
  }
  const first = itemsById[itemIds[0] ?? ''];
  if (first === undefined) return state;
  const turnsById: Record<string, TurnSummary> = {};
  for (const turn of Object.values(state.turnsById)) if (isActiveStatus(turn.status)) turnsById[turn.turnId] = turn;
  for (const item of Object.values(itemsById)) {
    const turn = state.turnsById[item.turnId];
    if (turn !== undefined) turnsById[turn.turnId] = turn;
  }
  return { ...state, itemIds, itemsById, turnsById, nextBefore: first.position };
}

/** The text an item holds: its own and every string in its data (a tool call's input, a result's output). */
function heldText(item: TranscriptItem | undefined): number {
  return item === undefined ? 0 : item.text.length + textIn(item.data);
}

function textIn(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (typeof value !== 'object' || value === null) return 0;
  let total = 0;
  for (const inner of Array.isArray(value) ? value : Object.values(value)) total += textIn(inner);
  return total;
}

function appendDelta(state: TranscriptState, itemId: string, text: string, length: number): TranscriptState {
  const item = state.itemsById[itemId];
  if (item === undefined && state.newerAfter !== null) return state; // streaming beyond a window
  if (item === undefined) return state.stale ? state : { ...state, stale: true };
  const nextText = item.text + text;
  const stale = state.stale || codePointLength(nextText) !== length;
  return { ...state, stale, itemsById: { ...state.itemsById, [itemId]: { ...item, text: nextText } } };
}

function finalizeItems(state: TranscriptState, itemIds: readonly string[]): TranscriptState {
  let itemsById: Record<string, TranscriptItem> | null = null;
  for (const itemId of itemIds) {
    const item = state.itemsById[itemId];
    if (item === undefined || item.state === 'final') continue;
    itemsById ??= { ...state.itemsById };
    itemsById[itemId] = { ...item, state: 'final' };
  }
  return itemsById === null ? state : { ...state, itemsById };
}

export function mergeTurns(
  known: Readonly<Record<string, TurnSummary>>,
  incoming: readonly TurnSummary[],
): Record<string, TurnSummary> {
  const turns = { ...known };
  for (const turn of incoming) {
    const existing = turns[turn.turnId];
    if (existing === undefined || turn.updatedAt >= existing.updatedAt) turns[turn.turnId] = turn;
  }
  return turns;
}

/** Sets a loaded transcript's loading flags (or leaves a window); nothing when the session is not loaded. */
export function patchTranscript(
  transcripts: TranscriptsState,
  sessionId: string,
  patch: { loadingOlder?: boolean; loadingNewer?: boolean; newerAfter?: null; following?: boolean },
): { transcripts: TranscriptsState } | Record<string, never> {
  const current = transcripts[sessionId];
  return current === undefined ? {} : { transcripts: { ...transcripts, [sessionId]: { ...current, ...patch } } };
}
