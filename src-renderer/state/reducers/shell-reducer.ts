import type { ChangeEvent } from '../../../src-shared/events';
import type { ShellRunRecord } from '../../../src-shared/shell-run-model';
import { isLiveShellRunStatus } from '../../../src-shared/shell-run-model';

export type ShellStream = 'stdout' | 'stderr';

/** A stretch of output from one stream; neighbouring pieces of the same stream are merged. */
export interface ShellOutputChunk {
  readonly stream: ShellStream;
  readonly text: string;
}

/** One command as this window knows it: its record and its output, in the order it arrived. */
export interface ShellRunView {
  readonly shellRunId: string;
  readonly sessionId: string;
  /** Null while only live output has arrived (the window joined mid-run); a read fills it in. */
  readonly record: ShellRunRecord | null;
  readonly chunks: readonly ShellOutputChunk[];
  /** Characters held in `chunks` (at most SHELL_OUTPUT_CAP). */
  readonly size: number;
  /** Output before what `chunks` holds was let go: by this window's cap, or by the host's tail. */
  readonly clipped: boolean;
  /**
   * Whether `chunks` is every piece of live output since the command started, in order. Then it is
   * kept over the record's tails (which lose the interleaving of stdout and stderr); otherwise the
   * final record's tails replace it.
   */
  readonly fromStart: boolean;
}

export interface ShellState {
  readonly runsById: Readonly<Record<string, ShellRunView>>;
  /** Each session's runs this window knows, newest first. */
  readonly idsBySession: Readonly<Record<string, readonly string[]>>;
  /** The run of a tool call, by `toolCallKey(turnId, toolCallId)` (the newest when a call ran more than once). */
  readonly byToolCall: Readonly<Record<string, string>>;
}

export const EMPTY_SHELL: ShellState = { runsById: {}, idsBySession: {}, byToolCall: {} };

/** Output kept per command, in characters: the last ~200 KB. */
export const SHELL_OUTPUT_CAP = 200_000;
/** Commands kept at most; beyond it the oldest finished ones are let go (a read brings them back). */
export const SHELL_RUNS_KEPT = 100;

const NO_IDS: readonly string[] = [];

/** A tool call is named by its turn and its id: an approved call runs in a later run of the same turn. */
export function toolCallKey(turnId: string, toolCallId: string): string {
  return `${turnId}\n${toolCallId}`;
}

export function shellRunIdForToolCall(state: ShellState, turnId: string, toolCallId: string): string | undefined {
  return state.byToolCall[toolCallKey(turnId, toolCallId)];
}

export function sessionShellRunIds(state: ShellState, sessionId: string): readonly string[] {
  return state.idsBySession[sessionId] ?? NO_IDS;
}

/** Appends output to a list of chunks and keeps only the last `cap` characters. Pure. */
export function appendChunk(
  chunks: readonly ShellOutputChunk[],
  size: number,
  piece: ShellOutputChunk,
  cap = SHELL_OUTPUT_CAP,
): { chunks: ShellOutputChunk[]; size: number; cut: boolean } {
  if (piece.text === '') return { chunks: [...chunks], size, cut: false };
  const next = [...chunks];
  const last = next.at(-1);
  if (last !== undefined && last.stream === piece.stream)
    next[next.length - 1] = { stream: last.stream, text: last.text + piece.text };
  else next.push(piece);
  let total = size + piece.text.length;
  let cut = false;
  while (total > cap && next.length > 0) {
    cut = true;
    const first = next[0]!;
    const excess = total - cap;
    if (first.text.length <= excess) {
      next.shift();
      total -= first.text.length;
    } else {
      next[0] = { stream: first.stream, text: first.text.slice(excess) };
      total -= excess;
    }
  }
  return { chunks: next, size: total, cut };
}

function tailsOf(record: ShellRunRecord): { chunks: ShellOutputChunk[]; size: number; cut: boolean } {
  let result = { chunks: [] as ShellOutputChunk[], size: 0, cut: false };
  for (const stream of ['stdout', 'stderr'] as const) {
    const text = stream === 'stdout' ? record.stdoutTail : record.stderrTail;
    const next = appendChunk(result.chunks, result.size, { stream, text });
    result = { ...next, cut: result.cut || next.cut };
  }
  return { ...result, cut: result.cut || record.stdoutTruncated || record.stderrTruncated };
}

/** Whether `incoming` may replace `known`: a final status never goes back to a live one. */
function supersedes(known: ShellRunRecord | null, incoming: ShellRunRecord): boolean {
  if (known === null) return true;
  if (!isLiveShellRunStatus(known.status) && isLiveShellRunStatus(incoming.status)) return false;
  if (known.status === 'running' && incoming.status === 'starting') return false;
  return true;
}

/**
 * A command's record from an event or a read. The first sight of a command takes its output from
 * the record's tails. Later, a record changes the status only; a final record also replaces the
 * output with its tails unless this window saw every piece live (`fromStart`). `resync` (a read after
 * the line to the host came back) takes the tails of a live command too, since pieces may have been
 * missed.
 */
export function applyShellRecord(
  state: ShellState,
  record: ShellRunRecord,
  options: { resync?: boolean } = {},
): ShellState {
  const known = state.runsById[record.shellRunId];
  if (known !== undefined && !supersedes(known.record, record)) return state;
  if (known?.record != null && options.resync !== true && sameRecord(known.record, record)) return state;
  let view: ShellRunView;
  const final = !isLiveShellRunStatus(record.status);
  if (
    known === undefined ||
    known.record === null ||
    (final && !known.fromStart) ||
    (options.resync === true && !final)
  ) {
    const tails = tailsOf(record);
    // Output that arrived live before the first record is newer than its tails only when it holds more.
    const keepLive = known !== undefined && known.record === null && !final && known.size > tails.size;
    view = keepLive
      ? { ...known, record }
      : {
          shellRunId: record.shellRunId,
          sessionId: record.sessionId,
          record,
          chunks: tails.chunks,
          size: tails.size,
          clipped: tails.cut,
          fromStart:
            tails.size === 0 &&
            !tails.cut &&
            isLiveShellRunStatus(record.status) &&
            (known === undefined || known.size === 0),
        };
  } else {
    view = { ...known, record };
  }
  return prune(place({ ...state, runsById: { ...state.runsById, [record.shellRunId]: view } }, view));
}

/** Live output of a command; output of a command not seen yet is kept until its record arrives. */
export function appendShellOutput(
  state: ShellState,
  sessionId: string,
  shellRunId: string,
  stream: ShellStream,
  text: string,
): ShellState {
  if (text === '') return state;
  const known = state.runsById[shellRunId];
  if (known !== undefined && known.record !== null && !isLiveShellRunStatus(known.record.status)) return state;
  const base: ShellRunView = known ?? {
    shellRunId,
    sessionId,
    record: null,
    chunks: [],
    size: 0,
    clipped: false,
    fromStart: false,
  };
  const next = appendChunk(base.chunks, base.size, { stream, text });
  const view: ShellRunView = { ...base, chunks: next.chunks, size: next.size, clipped: base.clipped || next.cut };
  const runsById = { ...state.runsById, [shellRunId]: view };
  return known === undefined ? prune({ ...state, runsById }) : { ...state, runsById };
}

/** The answer of shell.list for a session (newest first). */
export function applyShellList(
  state: ShellState,
  sessionId: string,
  records: readonly ShellRunRecord[],
  options: { resync?: boolean } = {},
): ShellState {
  let next = state;
  for (const record of records) next = applyShellRecord(next, record, options);
  const listed = records.map((record) => record.shellRunId).filter((id) => next.runsById[id] !== undefined);
  const ids = mergeIds(next, sessionId, listed);
  return ids === next.idsBySession[sessionId]
    ? next
    : { ...next, idsBySession: { ...next.idsBySession, [sessionId]: ids } };
}

export function forgetShellSession(state: ShellState, sessionId: string): ShellState {
  const ids = new Set(
    Object.values(state.runsById)
      .filter((view) => view.sessionId === sessionId)
      .map((view) => view.shellRunId),
  );
  if (ids.size === 0 && state.idsBySession[sessionId] === undefined) return state;
  return dropRuns(state, ids, [sessionId]);
}

export function reduceShellEvent(state: ShellState, event: ChangeEvent): ShellState {
  switch (event.kind) {
    case 'shell.changed':
      return applyShellRecord(state, event.shellRun);
    case 'shell.output':
      return appendShellOutput(state, event.sessionId, event.shellRunId, event.stream, event.text);
    case 'session.removed':
      return forgetShellSession(state, event.sessionId);
    default:
      return state;
  }
}

/** Whether a record says nothing new (a list read again, an event that a read already brought). */
function sameRecord(a: ShellRunRecord, b: ShellRunRecord): boolean {
  return (
    a.status === b.status &&
    a.pid === b.pid &&
    a.endedAt === b.endedAt &&
    a.exitCode === b.exitCode &&
    a.signal === b.signal &&
    a.failureMessage === b.failureMessage &&
    a.stdoutTail.length === b.stdoutTail.length &&
    a.stderrTail.length === b.stderrTail.length
  );
}

/** Indexes a view that has a record: its session's list (newest first) and its tool call. */
function place(state: ShellState, view: ShellRunView): ShellState {
  const record = view.record;
  if (record === null) return state;
  let next = state;
  const ids = mergeIds(state, record.sessionId, [record.shellRunId]);
  if (ids !== state.idsBySession[record.sessionId])
    next = { ...next, idsBySession: { ...next.idsBySession, [record.sessionId]: ids } };
  if (record.toolCallId !== null) {
    const key = toolCallKey(record.turnId, record.toolCallId);
    const current = next.byToolCall[key];
    const currentStart = current === undefined ? undefined : next.runsById[current]?.record?.startedAt;
    if (current !== record.shellRunId && (currentStart === undefined || currentStart <= record.startedAt)) {
      next = { ...next, byToolCall: { ...next.byToolCall, [key]: record.shellRunId } };
    }
  }
  return next;
}

function mergeIds(state: ShellState, sessionId: string, add: readonly string[]): readonly string[] {
  const current = state.idsBySession[sessionId] ?? NO_IDS;
  const missing = add.filter((id) => !current.includes(id));
  if (missing.length === 0) return current;
  const startOf = (id: string) => state.runsById[id]?.record?.startedAt ?? 0;
  return [...current, ...missing].sort((a, b) => startOf(b) - startOf(a) || (a < b ? 1 : a > b ? -1 : 0));
}

/** Lets go of the oldest finished commands (and output without a record) beyond SHELL_RUNS_KEPT. */
function prune(state: ShellState): ShellState {
  const views = Object.values(state.runsById);
  if (views.length <= SHELL_RUNS_KEPT) return state;
  const age = (view: ShellRunView) => (view.record === null ? -1 : (view.record.endedAt ?? view.record.startedAt));
  const candidates = views
    .filter((view) => view.record === null || !isLiveShellRunStatus(view.record.status))
    .sort((a, b) => age(a) - age(b));
  const drop = new Set(candidates.slice(0, views.length - SHELL_RUNS_KEPT).map((view) => view.shellRunId));
  return drop.size === 0 ? state : dropRuns(state, drop, []);
}

function dropRuns(state: ShellState, drop: ReadonlySet<string>, sessions: readonly string[]): ShellState {
  const runsById = { ...state.runsById };
  for (const id of drop) delete runsById[id];
  const idsBySession: Record<string, readonly string[]> = {};
  for (const [sessionId, ids] of Object.entries(state.idsBySession)) {
    if (sessions.includes(sessionId)) continue;
    idsBySession[sessionId] = ids.some((id) => drop.has(id)) ? ids.filter((id) => !drop.has(id)) : ids;
  }
  const byToolCall: Record<string, string> = {};
  for (const [key, id] of Object.entries(state.byToolCall)) if (!drop.has(id)) byToolCall[key] = id;
  return { runsById, idsBySession, byToolCall };
}
