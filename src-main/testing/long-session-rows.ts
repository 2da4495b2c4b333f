import Database from 'better-sqlite3';
import { join } from 'node:path';
import { DATABASE_FILE } from '../storage/database';

interface ItemRow {
  readonly kind: string;
  readonly text: string;
  readonly data: string | null;
}

const CODE = [
  '```ts',
  'export function total(items: readonly number[]): number {',
  '  return items.reduce((sum, item) => sum + item, 0);',
  '}',
  '```',
].join('\n');

/**
 * Writes a session of `turns` turns (2 × turns messages) into a stopped host's data directory, the rows
 * the host writes for finished turns, in one transaction (5,000 turns in well under a second, where
 * running them through the host takes minutes on a busy machine): each question says `seed message N`,
 * each answer is a short Markdown paragraph, every fifth carries a code block, and with a
 * `templateSessionId` (a real call the host recorded) every tenth turn also has that tool call and its
 * result. About 10 tokens per message, so 5,000 turns are about 100k tokens.
 */
export function seedLongSessionRows(
  dataDir: string,
  sessionId: string,
  templateSessionId: string | null,
  turns: number,
): void {
  const db = new Database(join(dataDir, DATABASE_FILE));
  try {
    const template = db
      .prepare<[string], ItemRow>(
        "SELECT kind, text, data FROM transcript_items WHERE session_id = ? AND kind IN ('tool_call', 'tool_result') ORDER BY position",
      )
      .all(templateSessionId ?? '');
    if (templateSessionId !== null && template.length === 0) throw new Error('The template session has no tool call');
    const at = Date.now() - turns * 1000;
    const turn =
      db.prepare(`INSERT INTO turns (session_id, turn_id, ordinal, origin, text, max_steps, status, latest_run_id, created_at, updated_at)
      VALUES (?, ?, ?, 'user', ?, 25, 'completed', ?, ?, ?)`);
    const run =
      db.prepare(`INSERT INTO runs (run_id, session_id, turn_id, attempt, kind, status, terminal_reason, started_at, ended_at)
      VALUES (?, ?, ?, 1, 'initial', 'completed', 'end_turn', ?, ?)`);
    const item =
      db.prepare(`INSERT INTO transcript_items (session_id, position, item_id, turn_id, run_id, kind, text, state, data, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, 'final', ?, ?)`);
    db.transaction(() => {
      let position = 0;
      for (let index = 1; index <= turns; index += 1) {
        const turnId = `long-${index}`;
        const runId = `${sessionId}-run-${index}`;
        const time = at + index * 1000;
        const question = `seed message ${index}: how does the total change?`;
        turn.run(sessionId, turnId, index, question, runId, time, time);
        run.run(runId, sessionId, turnId, time, time + 500);
        item.run(
          sessionId,
          position++,
          `${sessionId}-${turnId}-u`,
          turnId,
          runId,
          'user_message',
          question,
          null,
          time,
        );
        if (index % 10 === 0) {
          for (const row of template) {
            const data =
              row.data === null
                ? null
                : row.data.replaceAll(/"toolCallId":"[^"]*"/g, `"toolCallId":"${sessionId}-call-${index}"`);
            item.run(
              sessionId,
              position++,
              `${sessionId}-${turnId}-${row.kind}`,
              turnId,
              runId,
              row.kind,
              row.text,
              data,
              time + 100,
            );
          }
        }
        const answer =
          index % 5 === 0
            ? `Answer **${index}**: the total is the sum.\n\n${CODE}`
            : `Answer **${index}**: the total grows by *one* item each time.`;
        item.run(
          sessionId,
          position++,
          `${sessionId}-${turnId}-a`,
          turnId,
          runId,
          'assistant_message',
          answer,
          null,
          time + 500,
        );
      }
      db.prepare('UPDATE sessions SET next_position = ?, updated_at = ? WHERE session_id = ?').run(
        position,
        Date.now(),
        sessionId,
      );
    })();
  } finally {
    db.close();
  }
}
