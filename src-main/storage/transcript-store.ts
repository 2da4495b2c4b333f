import type { TranscriptItem, TranscriptItemKind } from '../../src-shared/model';
import type { Db } from './database';

export interface NewTranscriptItem {
  readonly sessionId: string;
  readonly itemId: string;
  readonly turnId: string;
  readonly runId: string;
  readonly kind: TranscriptItemKind;
  readonly text: string;
  readonly state: TranscriptItem['state'];
  readonly data?: Readonly<Record<string, unknown>> | null;
  readonly now: number;
}

/**
 * The transcript: a projection of the ledger kept in step with it (same transaction), so a page of
 * messages is one indexed range read however long the session is.
 */
export interface TranscriptStore {
  /** Appends an item at the session's next position. */
  append(item: NewTranscriptItem, position: number): TranscriptItem;
  /** Appends text to a streaming item; returns the item's text length after it. */
  appendText(itemId: string, text: string): number;
  /** Marks every streaming item of a run final; returns their ids. */
  finalizeRun(runId: string): string[];
  /** Items before `before` (exclusive), newest `limit` of them, in ascending position. */
  page(sessionId: string, before: number | null, limit: number): TranscriptItem[];
  /** Every item of a session in order (what a backend reads as history). */
  all(sessionId: string): TranscriptItem[];
  hasOlder(sessionId: string, position: number): boolean;
  /** Items after `after` (exclusive), the oldest `limit` of them, in ascending position. */
  pageAfter(sessionId: string, after: number, limit: number): TranscriptItem[];
  hasNewer(sessionId: string, position: number): boolean;
  /** The tool_call item of a run with this tool call id. */
  toolCall(runId: string, toolCallId: string): TranscriptItem | null;
}

interface ItemRow {
  session_id: string;
  position: number;
  item_id: string;
  turn_id: string;
  run_id: string;
  kind: TranscriptItemKind;
  text: string;
  state: TranscriptItem['state'];
  data: string | null;
  created_at: number;
}

function toItem(row: ItemRow): TranscriptItem {
  return {
    itemId: row.item_id,
    sessionId: row.session_id,
    turnId: row.turn_id,
    runId: row.run_id,
    position: row.position,
    kind: row.kind,
    text: row.text,
    state: row.state,
    data: row.data === null ? null : (JSON.parse(row.data) as Record<string, unknown>),
    createdAt: row.created_at,
  };
}

export function createTranscriptStore(db: Db): TranscriptStore {
  const insert = db.prepare(`
    INSERT INTO transcript_items (session_id, position, item_id, turn_id, run_id, kind, text, state, data, created_at)
    VALUES (@sessionId, @position, @itemId, @turnId, @runId, @kind, @text, @state, @data, @now)`);
  const appendText = db.prepare<[string, string], { length: number }>(
    "UPDATE transcript_items SET text = text || ? WHERE item_id = ? AND state = 'streaming' RETURNING length(text) AS length",
  );
  const finalize = db.prepare<[string], { item_id: string }>(
    "UPDATE transcript_items SET state = 'final' WHERE run_id = ? AND state = 'streaming' RETURNING item_id",
  );
  const pageBefore = db.prepare<[string, number, number], ItemRow>(
    'SELECT * FROM transcript_items WHERE session_id = ? AND position < ? ORDER BY position DESC LIMIT ?',
  );
  const all = db.prepare<[string], ItemRow>('SELECT * FROM transcript_items WHERE session_id = ? ORDER BY position');
  const hasOlder = db.prepare<[string, number], { found: number }>(
    'SELECT 1 AS found FROM transcript_items WHERE session_id = ? AND position < ? LIMIT 1',
  );
  const pageAfter = db.prepare<[string, number, number], ItemRow>(
    'SELECT * FROM transcript_items WHERE session_id = ? AND position > ? ORDER BY position LIMIT ?',
  );
  const hasNewer = db.prepare<[string, number], { found: number }>(
    'SELECT 1 AS found FROM transcript_items WHERE session_id = ? AND position > ? LIMIT 1',
  );

  const toolCall = db.prepare<[string, string], ItemRow>(
    "SELECT * FROM transcript_items WHERE run_id = ? AND kind = 'tool_call' AND json_extract(data, '$.toolCallId') = ?",
  );

  return {
    toolCall(runId, toolCallId) {
      const row = toolCall.get(runId, toolCallId);
      return row === undefined ? null : toItem(row);
    },
    append(item, position) {
      const data = item.data ?? null;
      insert.run({ ...item, data: data === null ? null : JSON.stringify(data), position });
      return {
        itemId: item.itemId,
        sessionId: item.sessionId,
        turnId: item.turnId,
        runId: item.runId,
        position,
        kind: item.kind,
        text: item.text,
        state: item.state,
        data: item.data ?? null,
        createdAt: item.now,
      };
    },
    appendText(itemId, text) {
      const row = appendText.get(text, itemId);
      if (row === undefined) throw new Error(`Transcript item ${itemId} is not streaming`);
      return row.length;
    },
    finalizeRun(runId) {
      return finalize.all(runId).map((row) => row.item_id);
    },
    page(sessionId, before, limit) {
      return pageBefore
        .all(sessionId, before ?? Number.MAX_SAFE_INTEGER, limit)
        .reverse()
        .map(toItem);
    },
    pageAfter(sessionId, after, limit) {
      return pageAfter.all(sessionId, after, limit).map(toItem);
    },
    hasNewer(sessionId, position) {
      return hasNewer.get(sessionId, position) !== undefined;
    },
    all(sessionId) {
      return all.all(sessionId).map(toItem);
    },
    hasOlder(sessionId, position) {
      return hasOlder.get(sessionId, position) !== undefined;
    },
  };
}
