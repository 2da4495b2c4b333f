import type { MessageSearchHit, SnippetPart } from '../../src-shared/chat-model';
import type { Db } from './database';

export interface MessageSearchQuery {
  /** The words to find (each word must occur; the last may be the start of a word). */
  readonly words: readonly string[];
  readonly includeArchived: boolean;
  /** Sessions never offered as results (the WorkHub's own conversation). */
  readonly excludeSessionId: string;
  readonly limit: number;
}

/**
 * The full-text index over what was said (`message_search`, migration 21). Triggers keep it in step
 * with the transcript, so this store only reads it.
 */
export interface MessageSearchStore {
  search(query: MessageSearchQuery): MessageSearchHit[];
}

const HIT_START = '\u0002';
const HIT_END = '\u0003';
const SNIPPET_TOKENS = 16;

interface HitRow {
  session_id: string;
  title: string;
  archived: number;
  item_id: string;
  position: number;
  kind: 'user_message' | 'assistant_message';
  snippet: string;
  created_at: number;
}

/**
 * A word in more messages than this is ranked among its newest this many matches: ranking every one
 * of tens of thousands of matches of a common word took longer than a search may (bm25 per match),
 * and for such a word the newest are what a person looks for. A rarer word is ranked over all of them.
 */
export const RANK_WITHIN_NEWEST = 2_000;

export function createMessageSearchStore(db: Db, rankWithinNewest = RANK_WITHIN_NEWEST): MessageSearchStore {
  // The rowid bound lets FTS5 skip older matches: the newest `within` matches' lowest rowid, or all.
  const search = db.prepare<
    [{ match: string; excluded: string; archived: number; limit: number; within: number }],
    HitRow
  >(`
    SELECT t.session_id, s.title, s.archived, t.item_id, t.position, t.kind, t.created_at,
           snippet(message_search, 0, '${HIT_START}', '${HIT_END}', '…', ${SNIPPET_TOKENS}) AS snippet
    FROM message_search
    JOIN transcript_items t ON t.rowid = message_search.rowid
    JOIN sessions s ON s.session_id = t.session_id
    WHERE message_search MATCH @match
      AND message_search.rowid >= COALESCE(
        (SELECT rowid FROM message_search WHERE message_search MATCH @match ORDER BY rowid DESC LIMIT 1 OFFSET @within),
        0)
      AND s.session_id <> @excluded AND (s.archived = 0 OR @archived)
    ORDER BY message_search.rank
    LIMIT @limit`);
  return {
    search({ words, includeArchived, excludeSessionId, limit }) {
      const match = matchExpression(words);
      if (match === null) return [];
      return search
        .all({
          match,
          excluded: excludeSessionId,
          archived: includeArchived ? 1 : 0,
          limit,
          within: rankWithinNewest - 1,
        })
        .map((row) => ({
          sessionId: row.session_id,
          sessionTitle: row.title,
          archived: row.archived === 1,
          itemId: row.item_id,
          position: row.position,
          kind: row.kind,
          snippet: snippetParts(row.snippet),
          createdAt: row.created_at,
        }));
    },
  };
}

/**
 * An FTS5 expression from what the person typed: every word quoted (so punctuation and FTS syntax
 * are taken literally), all of them required, the last one also matching as a word's start.
 */
export function matchExpression(words: readonly string[]): string | null {
  const terms = words
    .map((word) => word.replaceAll(HIT_START, '').replaceAll(HIT_END, '').trim())
    .filter((word) => word !== '');
  if (terms.length === 0) return null;
  return terms
    .map((term, index) => `"${term.replaceAll('"', '""')}"${index === terms.length - 1 ? '*' : ''}`)
    .join(' ');
}

/** Splits a snippet marked with the hit markers into plain and matching parts. */
export function snippetParts(marked: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let rest = marked;
  while (rest !== '') {
    const start = rest.indexOf(HIT_START);
    if (start === -1) {
      parts.push({ text: rest, hit: false });
      break;
    }
    if (start > 0) parts.push({ text: rest.slice(0, start), hit: false });
    const end = rest.indexOf(HIT_END, start);
    const stop = end === -1 ? rest.length : end;
    parts.push({ text: rest.slice(start + 1, stop), hit: true });
    rest = end === -1 ? '' : rest.slice(end + 1);
  }
  return parts
    .map((part) => ({ text: part.text.replace(/\s+/g, ' '), hit: part.hit }))
    .filter((part) => part.text !== '');
}
