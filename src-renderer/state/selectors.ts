import type { SessionActivity, TranscriptItem, TurnSummary } from '../../src-shared/model';
import { isActiveStatus } from '../../src-shared/model';
import { isResumeNotice } from '../../src-shared/run-reasons';
import { continuesAnswerAt } from '../../src-shared/answer-parts';
import type { AppState } from './app-state';

/** Selectors shared by components: each returns one value, stable while what it reads is unchanged. */

export const NO_IDS: readonly string[] = [];

/** Whether a session holds a running or waiting turn (so new text becomes a follow-up, and Stop shows). */
export function isBusy(activity: SessionActivity | undefined): boolean {
  return activity !== undefined && activity !== 'idle' && isActiveStatus(activity);
}

/**
 * Whether the line to the host is down. Then what the window shows about live work is only what it
 * last saw: indicators freeze ("status unknown") and nothing offers to act on the host.
 */
export const selectHostUnreachable = (state: AppState): boolean => state.connection.status !== 'open';

/** The host answered but will not serve this tab (a refused token): the banner says what to do, nothing else contradicts it. */
export const selectHostRefused = (state: AppState): boolean => state.connection.status === 'failed';

export const selectSessionBusy =
  (sessionId: string) =>
  (state: AppState): boolean =>
    isBusy(state.sessions.byId[sessionId]?.activity);

export const selectItem =
  (sessionId: string, itemId: string) =>
  (state: AppState): TranscriptItem | undefined =>
    state.transcripts[sessionId]?.itemsById[itemId];

export const selectTurn =
  (sessionId: string, turnId: string) =>
  (state: AppState): TurnSummary | undefined =>
    state.transcripts[sessionId]?.turnsById[turnId];

/** The turn of the newest loaded message: the one whose Resume/Retry the view offers. */
export const selectLatestTurnId =
  (sessionId: string) =>
  (state: AppState): string | null => {
    const transcript = state.transcripts[sessionId];
    const lastId = transcript?.itemIds.at(-1);
    return lastId === undefined ? null : (transcript?.itemsById[lastId]?.turnId ?? null);
  };

/** Whether the item at `index` is the last one of its turn (so the turn's status shows under it). */
export const selectEndsTurn =
  (sessionId: string, index: number) =>
  (state: AppState): boolean => {
    const transcript = state.transcripts[sessionId];
    if (transcript === undefined) return false;
    const id = transcript.itemIds[index];
    const nextId = transcript.itemIds[index + 1];
    if (id === undefined) return false;
    if (nextId === undefined) return true;
    return transcript.itemsById[id]?.turnId !== transcript.itemsById[nextId]?.turnId;
  };

/**
 * Whether the item at `index` continues the answer before it: an assistant message right after an
 * assistant message of the same turn written by an earlier run (Resume or Retry after a cut-off
 * answer). Such an item is shown as part of that answer, not as a second one.
 */
export function continuesAnswer(
  transcript: { readonly itemIds: readonly string[]; readonly itemsById: Readonly<Record<string, TranscriptItem>> },
  index: number,
): boolean {
  return continuesAnswerAt((at) => transcript.itemsById[transcript.itemIds[at] ?? ''], index);
}

export const selectContinuesAnswer =
  (sessionId: string, index: number) =>
  (state: AppState): boolean => {
    const transcript = state.transcripts[sessionId];
    return transcript !== undefined && continuesAnswer(transcript, index);
  };

/**
 * Whether the message at `index`, with the continuations joined onto it, is the last of its turn: a
 * turn's final answer, not an interim line before a tool call ("Calling write_file.").
 */
export const selectEndsAnswerTurn =
  (sessionId: string, index: number) =>
  (state: AppState): boolean => {
    const transcript = state.transcripts[sessionId];
    if (transcript === undefined) return false;
    let last = index;
    for (let at = index + 1; at < transcript.itemIds.length; at += 1) {
      const item = transcript.itemsById[transcript.itemIds[at] ?? ''];
      if (item === undefined) break;
      if (isResumeNotice(item)) continue;
      if (!continuesAnswer(transcript, at)) break;
      last = at;
    }
    return selectEndsTurn(sessionId, last)(state);
  };

/** One place in a joined answer where a resumed run's text starts: its offset in the text and what its marker says. */
export interface AnswerSeam {
  readonly offset: number;
  readonly label: string;
}

/**
 * The answer that starts at `index` with its continuations joined, whether any part still streams,
 * and where each resumed part starts (with the marker notice that precedes it).
 */
function joinedAnswer(
  state: AppState,
  sessionId: string,
  index: number,
): { text: string; streaming: boolean; seams: AnswerSeam[] } | null {
  const transcript = state.transcripts[sessionId];
  if (transcript === undefined) return null;
  let text = '';
  let streaming = false;
  const seams: AnswerSeam[] = [];
  let marker: string | null = null;
  for (let at = index; ; at += 1) {
    const item = transcript.itemsById[transcript.itemIds[at] ?? ''];
    if (item === undefined) break;
    if (at > index && isResumeNotice(item)) {
      marker = item.text;
      continue;
    }
    if (at > index && !continuesAnswer(transcript, at)) break;
    if (marker !== null) seams.push({ offset: text.length, label: marker });
    marker = null;
    text += item.text;
    streaming ||= item.state === 'streaming';
  }
  return { text, streaming, seams };
}

/** Where the resumed parts of the answer at `index` start, as JSON (one string: a stable selector value). */
export const selectAnswerSeams =
  (sessionId: string, index: number) =>
  (state: AppState): string =>
    JSON.stringify(joinedAnswer(state, sessionId, index)?.seams ?? []);

/** Whether the item at `index` is a resume marker that an answer shows inside itself, where its resumed part starts. */
export const selectResumeInsideAnswer =
  (sessionId: string, index: number) =>
  (state: AppState): boolean => {
    const transcript = state.transcripts[sessionId];
    if (transcript === undefined) return false;
    let at = index + 1;
    while (
      at < transcript.itemIds.length &&
      isResumeNotice(transcript.itemsById[transcript.itemIds[at] ?? ''] ?? { kind: '', data: null })
    )
      at += 1;
    return continuesAnswer(transcript, at);
  };

export const selectAnswerText =
  (sessionId: string, index: number) =>
  (state: AppState): string =>
    joinedAnswer(state, sessionId, index)?.text ?? '';

export const selectAnswerStreaming =
  (sessionId: string, index: number) =>
  (state: AppState): boolean =>
    joinedAnswer(state, sessionId, index)?.streaming ?? false;

/** Whether the session's turns run on Codex (its own agent, tools, sandbox and MCP setup). */
/** Whether the session runs on an ACP agent (it runs its own tools; Cairn's shell and sandbox note do not apply). */
export const selectRunsOnAcp =
  (sessionId: string) =>
  (state: AppState): boolean => {
    const connectionId = state.sessions.byId[sessionId]?.connectionId;
    return state.catalog.connections.some(
      (connection) => connection.connectionId === connectionId && connection.providerType === 'acp',
    );
  };

export const selectRunsOnCodex =
  (sessionId: string) =>
  (state: AppState): boolean => {
    const connectionId = state.sessions.byId[sessionId]?.connectionId;
    return state.catalog.connections.some(
      (connection) => connection.connectionId === connectionId && connection.providerType === 'codex',
    );
  };
