import type { SummaryRecord } from '../../src-shared/compaction-model';
import type { Db } from './database';

export type NewSummary = SummaryRecord;

/** Compaction summaries: written once, never changed; the newest per session is the one requests send. */
export interface SummaryStore {
  insert(summary: NewSummary): SummaryRecord;
  /** The session's newest summary (the one covering the most), or null. */
  latest(sessionId: string): SummaryRecord | null;
  /** Every summary of a session, oldest first. */
  list(sessionId: string): SummaryRecord[];
  /** How many messages from the person the transcript holds up to and including `position`. */
  userMessagesThrough(sessionId: string, position: number): number;
  /** The text of a goal's first turn (what the goal started from), or null. */
  firstGoalTurnText(sessionId: string, goalId: string): string | null;
}

interface SummaryRow {
  summary_id: string;
  session_id: string;
  first_position: number;
  last_position: number;
  first_item_id: string;
  first_turn: number;
  last_turn: number;
  text: string | null;
  previous_summary_id: string | null;
  turn_id: string;
  run_id: string;
  input_tokens: number;
  output_tokens: number;
  summary_tokens: number;
  created_at: number;
}

function toRecord(row: SummaryRow): SummaryRecord {
  return {
    summaryId: row.summary_id,
    sessionId: row.session_id,
    firstPosition: row.first_position,
    lastPosition: row.last_position,
    firstItemId: row.first_item_id,
    firstTurn: row.first_turn,
    lastTurn: row.last_turn,
    text: row.text,
    previousSummaryId: row.previous_summary_id,
    turnId: row.turn_id,
    runId: row.run_id,
    inputTokens: row.input_tokens,
    outputTokens: row.output_tokens,
    summaryTokens: row.summary_tokens,
    createdAt: row.created_at,
  };
}

export function createSummaryStore(db: Db): SummaryStore {
  const insert =
    db.prepare(`INSERT INTO context_summaries (summary_id, session_id, first_position, last_position, first_item_id, first_turn,
    last_turn, text, previous_summary_id, turn_id, run_id, input_tokens, output_tokens, summary_tokens, created_at)
    VALUES (@summaryId, @sessionId, @firstPosition, @lastPosition, @firstItemId, @firstTurn, @lastTurn, @text, @previousSummaryId,
    @turnId, @runId, @inputTokens, @outputTokens, @summaryTokens, @createdAt)`);
  const latest = db.prepare<[string], SummaryRow>(
    'SELECT * FROM context_summaries WHERE session_id = ? ORDER BY last_position DESC, created_at DESC, rowid DESC LIMIT 1',
  );
  const list = db.prepare<[string], SummaryRow>(
    'SELECT * FROM context_summaries WHERE session_id = ? ORDER BY created_at, rowid',
  );
  const userMessages = db
    .prepare<[string, number], number>(
      "SELECT COUNT(*) FROM transcript_items WHERE session_id = ? AND kind = 'user_message' AND position <= ?",
    )
    .pluck();
  const firstGoalTurn = db
    .prepare<[string, string], string>(
      'SELECT text FROM turns WHERE session_id = ? AND goal_id = ? ORDER BY ordinal LIMIT 1',
    )
    .pluck();
  return {
    insert(summary) {
      insert.run(summary);
      return summary;
    },
    latest(sessionId) {
      const row = latest.get(sessionId);
      return row === undefined ? null : toRecord(row);
    },
    list: (sessionId) => list.all(sessionId).map(toRecord),
    userMessagesThrough: (sessionId, position) => userMessages.get(sessionId, position) ?? 0,
    firstGoalTurnText: (sessionId, goalId) => firstGoalTurn.get(sessionId, goalId) ?? null,
  };
}
