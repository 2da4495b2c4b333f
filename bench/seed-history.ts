import Database from 'better-sqlite3';
import { join } from 'node:path';
import { DATABASE_FILE } from '../src-main/storage/database';

export interface SeededHistory {
  readonly sessions: number;
  readonly events: number;
}

/**
 * Writes `sessions` finished one-turn sessions (each with `eventsPerSession` ledger events) straight
 * into a migrated data directory: fast, and the same rows the host writes. The host must have opened
 * and closed the directory once before, so the schema exists.
 */
export function seedHistory(dataDir: string, sessions: number, eventsPerSession: number): SeededHistory {
  const db = new Database(join(dataDir, DATABASE_FILE));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const session =
    db.prepare(`INSERT INTO sessions (session_id, title, title_source, connection_id, permission_mode, revision, next_position, created_at, updated_at)
    VALUES (?, ?, 'user', 'offline-demo', 'ask', 3, 2, ?, ?)`);
  const turn =
    db.prepare(`INSERT INTO turns (session_id, turn_id, ordinal, origin, text, max_steps, status, latest_run_id, created_at, updated_at)
    VALUES (?, 't1', 1, 'user', ?, 25, 'completed', ?, ?, ?)`);
  const run =
    db.prepare(`INSERT INTO runs (run_id, session_id, turn_id, attempt, kind, status, terminal_reason, started_at, ended_at)
    VALUES (?, ?, 't1', 1, 'initial', 'completed', 'end_turn', ?, ?)`);
  const event = db.prepare('INSERT INTO ledger (run_id, sequence, kind, payload, recorded_at) VALUES (?, ?, ?, ?, ?)');
  const item =
    db.prepare(`INSERT INTO transcript_items (session_id, position, item_id, turn_id, run_id, kind, text, state, created_at)
    VALUES (?, ?, ?, 't1', ?, ?, ?, 'final', ?)`);
  const words = ['budget', 'garden', 'release', 'invoice', 'travel', 'recipe', 'backup', 'lecture'];
  db.transaction(() => {
    for (let index = 0; index < sessions; index += 1) {
      const sessionId = `bench-${index}`;
      const runId = `bench-run-${index}`;
      const at = 1_700_000_000_000 + index * 1000;
      const topic = `${words[index % words.length]} ${index}`;
      session.run(sessionId, `Notes on ${topic}`, at, at);
      turn.run(sessionId, `Tell me about ${topic}`, runId, at, at);
      run.run(runId, sessionId, at, at + 500);
      for (let sequence = 1; sequence <= eventsPerSession; sequence += 1) {
        event.run(
          runId,
          sequence,
          'assistant_text',
          JSON.stringify({ text: `chunk ${sequence} about ${topic}` }),
          at + sequence,
        );
      }
      item.run(sessionId, 0, `${sessionId}-u`, runId, 'user_message', `Tell me about ${topic}`, at);
      item.run(
        sessionId,
        1,
        `${sessionId}-a`,
        runId,
        'assistant_message',
        `Here is what I know about ${topic}.`,
        at + 500,
      );
    }
  })();
  db.close();
  return { sessions, events: sessions * eventsPerSession };
}
