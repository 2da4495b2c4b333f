import type { TranscriptItem } from '../../src-shared/model';
import type { AppState } from './app-state';
import type { TranscriptState } from './reducers/transcript-reducer';
import { toolCallKey } from './reducers/shell-reducer';

/** A tool call's two transcript items, as far as they are loaded. */
export interface ToolCallItems {
  readonly callId?: string;
  readonly resultId?: string;
}

export type ToolCallIndex = ReadonlyMap<string, ToolCallItems>;

/** The tool call an item belongs to (a tool_call or tool_result with a toolCallId), by `toolCallKey`. */
export function toolCallKeyOf(item: TranscriptItem): string | null {
  if (item.kind !== 'tool_call' && item.kind !== 'tool_result') return null;
  const id = item.data?.toolCallId;
  return typeof id === 'string' && id !== '' ? toolCallKey(item.turnId, id) : null;
}

/** Pairs each loaded tool call with its result. Pure. */
export function indexToolCalls(
  itemIds: readonly string[],
  itemsById: Readonly<Record<string, TranscriptItem>>,
): ToolCallIndex {
  const index = new Map<string, ToolCallItems>();
  for (const itemId of itemIds) {
    const item = itemsById[itemId];
    if (item === undefined) continue;
    const key = toolCallKeyOf(item);
    if (key === null) continue;
    const entry = index.get(key) ?? {};
    // The first call and the last result: an approved call records no second tool_call, a resumed one may.
    index.set(
      key,
      item.kind === 'tool_call' ? { ...entry, callId: entry.callId ?? itemId } : { ...entry, resultId: itemId },
    );
  }
  return index;
}

// Tool items never change once appended, so the index only needs rebuilding when the ids do.
const cache = new WeakMap<readonly string[], ToolCallIndex>();

function indexOf(transcript: TranscriptState): ToolCallIndex {
  let index = cache.get(transcript.itemIds);
  if (index === undefined) {
    index = indexToolCalls(transcript.itemIds, transcript.itemsById);
    cache.set(transcript.itemIds, index);
  }
  return index;
}

/** The result item of a tool call, once it is in the loaded transcript. */
export const selectToolResult =
  (sessionId: string, key: string | null) =>
  (state: AppState): TranscriptItem | undefined => {
    const transcript = state.transcripts[sessionId];
    if (transcript === undefined || key === null) return undefined;
    const resultId = indexOf(transcript).get(key)?.resultId;
    return resultId === undefined ? undefined : transcript.itemsById[resultId];
  };

/** Whether a tool call's own item is loaded (then it shows the result, and the result item shows nothing). */
export const selectToolCallLoaded =
  (sessionId: string, key: string | null) =>
  (state: AppState): boolean => {
    const transcript = state.transcripts[sessionId];
    if (transcript === undefined || key === null) return false;
    return indexOf(transcript).get(key)?.callId !== undefined;
  };
