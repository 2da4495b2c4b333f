import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createHost } from '../src-main/host/create-host';
import { silentLogger } from '../src-main/runtime/core/ports';
import { DATABASE_FILE } from '../src-main/storage/database';
import type { BenchResult } from './bench-result';

const SESSIONS = 5_000;
const EVENTS_PER_SESSION = 100;
const ROUNDS = 15;

/**
 * Start-up against history: the time `createHost` takes (lock, open, migrate, recover, index
 * catch-up) on a data directory with 5,000 sessions and 500,000 ledger events, against an empty
 * one, in the same run (median of rounds, alternating). Both directories were opened and closed
 * cleanly once before measuring, as after any normal shutdown.
 */
export async function benchColdStart(): Promise<BenchResult[]> {
  const empty = mkdtempSync(join(tmpdir(), 'cairn-bench-start-empty-'));
  const full = mkdtempSync(join(tmpdir(), 'cairn-bench-start-full-'));
  try {
    await (await createHost({ dataDir: empty, logger: silentLogger })).close();
    await (await createHost({ dataDir: full, logger: silentLogger })).close();
    const seeded = seed(full);
    // The first start after the seeding indexes the new sessions, as the host that wrote them would have.
    await (await createHost({ dataDir: full, logger: silentLogger })).close();
    const emptyTimes: number[] = [];
    const fullTimes: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      emptyTimes.push(await timeStart(empty));
      fullTimes.push(await timeStart(full));
    }
    const emptyMs = median(emptyTimes);
    const fullMs = median(fullTimes);
    const checkMs = median(Array.from({ length: 5 }, () => timeQuickCheck(full)));
    return [
      { name: 'start an empty data directory (median)', value: emptyMs, unit: 'ms' },
      {
        name: `start with ${seeded.sessions.toLocaleString('en')} sessions / ${seeded.events.toLocaleString('en')} events (median)`,
        value: fullMs,
        unit: 'ms',
        ratio: fullMs / emptyMs,
        target: '≤ 1.2 × the empty one',
      },
      {
        // What `PRAGMA quick_check` at every start would add (it runs today only after an unclean end).
        name: `PRAGMA quick_check of that database (median)`,
        value: checkMs,
        unit: 'ms',
        ratio: (fullMs + checkMs) / emptyMs,
        target: 'so it runs only after an unclean end, not at every start',
      },
    ];
  } finally {
    rmSync(empty, { recursive: true, force: true });
    rmSync(full, { recursive: true, force: true });
  }
}

async function timeStart(dataDir: string): Promise<number> {
  const started = performance.now();
  const host = await createHost({ dataDir, logger: silentLogger });
  const elapsed = performance.now() - started;
  await host.close();
  return elapsed;
}

function timeQuickCheck(dataDir: string): number {
  const db = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
  try {
    const started = performance.now();
    db.pragma('quick_check');
    return performance.now() - started;
  } finally {
    db.close();
  }
}

/** Writes the history straight into the migrated schema: fast, and the same rows the host writes. */
function seed(dataDir: string): { sessions: number; events: number } {
  const db = new Database(join(dataDir, DATABASE_FILE));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const session = db.prepare(`INSERT INTO sessions (session_id, title, title_source, connection_id, permission_mode, revision, next_position, created_at, updated_at)
    VALUES (?, ?, 'user', 'offline-demo', 'ask', 3, 2, ?, ?)`);
  const turn = db.prepare(`INSERT INTO turns (session_id, turn_id, ordinal, origin, text, max_steps, status, latest_run_id, created_at, updated_at)
    VALUES (?, 't1', 1, 'user', ?, 25, 'completed', ?, ?, ?)`);
  const run = db.prepare(`INSERT INTO runs (run_id, session_id, turn_id, attempt, kind, status, terminal_reason, started_at, ended_at)
    VALUES (?, ?, 't1', 1, 'initial', 'completed', 'end_turn', ?, ?)`);
  const event = db.prepare('INSERT INTO ledger (run_id, sequence, kind, payload, recorded_at) VALUES (?, ?, ?, ?, ?)');
  const item = db.prepare(`INSERT INTO transcript_items (session_id, position, item_id, turn_id, run_id, kind, text, state, created_at)
    VALUES (?, ?, ?, 't1', ?, ?, ?, 'final', ?)`);
  const words = ['budget', 'garden', 'release', 'invoice', 'travel', 'recipe', 'backup', 'lecture'];
  db.transaction(() => {
    for (let index = 0; index < SESSIONS; index += 1) {
      const sessionId = `bench-${index}`;
      const runId = `bench-run-${index}`;
      const at = 1_700_000_000_000 + index * 1000;
      const topic = `${words[index % words.length]} ${index}`;
      session.run(sessionId, `Notes on ${topic}`, at, at);
      turn.run(sessionId, `Tell me about ${topic}`, runId, at, at);
      run.run(runId, sessionId, at, at + 500);
      for (let sequence = 1; sequence <= EVENTS_PER_SESSION; sequence += 1) {
        event.run(runId, sequence, 'assistant_text', JSON.stringify({ text: `chunk ${sequence} about ${topic}` }), at + sequence);
      }
      item.run(sessionId, 0, `${sessionId}-u`, runId, 'user_message', `Tell me about ${topic}`, at);
      item.run(sessionId, 1, `${sessionId}-a`, runId, 'assistant_message', `Here is what I know about ${topic}.`, at + 500);
    }
  })();
  db.close();
  return { sessions: SESSIONS, events: SESSIONS * EVENTS_PER_SESSION };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
