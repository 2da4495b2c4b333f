import type { HistoryMessage } from '../contract/agent-backend';

/** One transcript item after the previous summary, as the range choice sees it. */
export interface RangeEntry {
  readonly role: HistoryMessage['role'];
  readonly toolCallId: string | null;
  /** What it costs in a request. */
  readonly tokens: number;
}

/**
 * Where the recent part that stays verbatim begins, for items after the previous summary (oldest
 * first): at least `keepTokens` of the newest items are kept when they exist, and the start moves
 * later to a clean boundary — a message from the person where there is one, else the first item
 * that separates no tool call from its result. Everything before the returned index is summarised;
 * 0 means there is nothing to summarise.
 */
export function keptStart(entries: readonly RangeEntry[], keepTokens: number): number {
  let start = entries.length;
  let kept = 0;
  while (start > 0) {
    const tokens = (entries[start - 1] as RangeEntry).tokens;
    if (kept + tokens > keepTokens) break;
    kept += tokens;
    start -= 1;
  }
  const clean = cleanBoundaries(entries);
  for (let index = start; index < entries.length; index += 1) {
    if (clean[index] === true && entries[index]?.role === 'user') return index;
  }
  for (let index = start; index <= entries.length; index += 1) if (clean[index] === true) return index;
  return entries.length;
}

/**
 * For each index 0..length: whether a cut just before it keeps every tool call with its result
 * (no call before it is answered at or after it) and does not start on a result or reasoning.
 */
export function cleanBoundaries(entries: readonly RangeEntry[]): boolean[] {
  const answeredAt = new Map<string, number>();
  entries.forEach((entry, index) => {
    if (entry.role === 'tool_result' && entry.toolCallId !== null) answeredAt.set(entry.toolCallId, index);
  });
  const clean: boolean[] = [];
  let openUntil = -1;
  for (let index = 0; index <= entries.length; index += 1) {
    const entry = entries[index];
    const startsCleanly = entry === undefined || (entry.role !== 'tool_result' && entry.role !== 'reasoning');
    clean.push(index > openUntil && startsCleanly);
    if (entry?.role === 'tool_call' && entry.toolCallId !== null)
      openUntil = Math.max(openUntil, answeredAt.get(entry.toolCallId) ?? -1);
  }
  return clean;
}
