import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createHost } from '../src-main/host/create-host';
import { silentLogger } from '../src-main/runtime/ports/ports';
import { DATABASE_FILE } from '../src-main/storage/database';
import type { BenchResult } from './bench-result';
import { seedHistory } from './seed-history';

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
    const seeded = seedHistory(full, SESSIONS, EVENTS_PER_SESSION);
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

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
