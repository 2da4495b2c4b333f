import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { CairnHost, freePort } from '../e2e/cairn-host';
import { createHost } from '../src-main/host/create-host';
import { silentLogger } from '../src-main/runtime/ports/ports';
import { DATABASE_FILE } from '../src-main/storage/database';
import type { BenchResult } from './bench-result';
import { COMMON_WORD, RARE_WORD, seedBigRecord } from './big-record-seed';
import { benchPage, launchChromium, percentile } from './browser';
import { openSession } from './session-open.bench';

const SESSIONS = Number(process.env.CAIRN_BENCH_BIG_SESSIONS ?? 2_000);
const EVENTS = Number(process.env.CAIRN_BENCH_BIG_EVENTS ?? 1_000_000);
const START_ROUNDS = 15;
const SEARCHES = 30;
const OPEN_ROUNDS = 7;

/**
 * `npm run bench big-record`: a year of history — 2,000 sessions and 1,000,000 ledger events written
 * through the stores (bench/big-record-seed.ts) — against an empty data directory: cold start,
 * message search for a rare and a common word, opening the largest session (10,000 messages)
 * against a 100-message one in Chromium, and what the database holds per message.
 */
export async function benchBigRecord(): Promise<BenchResult[]> {
  const empty = mkdtempSync(join(tmpdir(), 'cairn-bench-big-empty-'));
  const full = mkdtempSync(join(tmpdir(), 'cairn-bench-big-full-'));
  try {
    await (await createHost({ dataDir: empty, logger: silentLogger })).close();
    await (await createHost({ dataDir: full, logger: silentLogger })).close();
    const seedStarted = performance.now();
    const record = seedBigRecord(full, SESSIONS, EVENTS);
    const seedMs = performance.now() - seedStarted;
    // The first start after the seeding indexes the new messages, as the host that wrote them would have.
    const firstStartMs = (await timeStart(full)).wallMs;
    const emptyStarts: StartTime[] = [];
    const fullStarts: StartTime[] = [];
    for (let round = 0; round < START_ROUNDS; round += 1) {
      emptyStarts.push(await timeStart(empty));
      fullStarts.push(await timeStart(full));
    }
    const search = await searchTimes(full);
    const open = await openTimes(full, record.largest, record.small);
    const databaseBytes = statSync(join(full, DATABASE_FILE)).size;
    const emptyMs = percentile(
      emptyStarts.map((start) => start.wallMs),
      50,
    );
    const fullMs = percentile(
      fullStarts.map((start) => start.wallMs),
      50,
    );
    const emptyCpuMs = percentile(
      emptyStarts.map((start) => start.cpuMs),
      50,
    );
    const fullCpuMs = percentile(
      fullStarts.map((start) => start.cpuMs),
      50,
    );
    const scale = `${record.sessions.toLocaleString('en')} sessions / ${record.events.toLocaleString('en')} events`;
    return [
      {
        name: `big-record: seeding ${scale} through the stores`,
        value: seedMs / 1000,
        unit: `s (first start, indexing: ${(firstStartMs / 1000).toFixed(1)} s)`,
      },
      { name: 'big-record: start an empty data directory (median)', value: emptyMs, unit: 'ms' },
      {
        name: `big-record: start with ${scale} (median)`,
        value: fullMs,
        unit: 'ms',
        ratio: fullMs / emptyMs,
        target: `≤ 1.2 × empty: ${met(fullMs / emptyMs <= 1.2)}`,
      },
      {
        // The wall time is mostly the children start waits for (the sandbox probe, git's version), which a
        // loaded machine slows at random; the host's own CPU time is what grows with the record if anything does.
        name: `big-record: start's own CPU time, ${scale} against empty (median)`,
        value: fullCpuMs,
        unit: `ms (empty: ${emptyCpuMs.toFixed(0)} ms)`,
        ratio: fullCpuMs / emptyCpuMs,
      },
      {
        name: `big-record: search a rare word (“${RARE_WORD}”), p95`,
        value: percentile(search.rare, 95),
        unit: `ms (${search.rareHits} hits)`,
        target: `≤ 150 ms: ${met(percentile(search.rare, 95) <= 150)}`,
      },
      {
        name: `big-record: search a common word (“${COMMON_WORD}”), p95`,
        value: percentile(search.common, 95),
        unit: `ms (${search.commonHits} hits)`,
        target: `≤ 150 ms: ${met(percentile(search.common, 95) <= 150)}`,
      },
      { name: 'big-record: open a 100-message session (median)', value: open.small, unit: 'ms' },
      {
        name: 'big-record: open the largest session, 10,000 messages (median)',
        value: open.largest,
        unit: 'ms',
        ratio: open.largest / open.small,
        target: `≤ 1.2 × the 100-message one: ${met(open.largest / open.small <= 1.2)}`,
      },
      {
        name: 'big-record: database bytes per message',
        value: databaseBytes / record.messages,
        unit: `B (the messages' own text: ${(record.textBytes / record.messages).toFixed(0)} B; database ${(databaseBytes / 1024 / 1024).toFixed(0)} MB for ${record.messages.toLocaleString('en')} messages)`,
      },
    ];
  } finally {
    rmSync(empty, { recursive: true, force: true });
    rmSync(full, { recursive: true, force: true });
  }
}

function met(ok: boolean): string {
  return ok ? 'met' : 'not met';
}

interface StartTime {
  readonly wallMs: number;
  /** This process's CPU time (user and system) during the start: the host's own work, not its children's. */
  readonly cpuMs: number;
}

async function timeStart(dataDir: string): Promise<StartTime> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const host = await createHost({ dataDir, logger: silentLogger });
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  await host.close();
  return { wallMs, cpuMs: (used.user + used.system) / 1000 };
}

/** `search.messages` for each word, timed at the host (in process, as the operation runs). */
async function searchTimes(dataDir: string) {
  const host = await createHost({ dataDir, logger: silentLogger });
  try {
    const times = { rare: [] as number[], common: [] as number[], rareHits: 0, commonHits: 0 };
    for (let round = 0; round < SEARCHES; round += 1) {
      for (const [word, into] of [
        [RARE_WORD, 'rare'],
        [COMMON_WORD, 'common'],
      ] as const) {
        const started = performance.now();
        const outcome = await host.invoke('search.messages', { query: word });
        times[into].push(performance.now() - started);
        if (!outcome.ok) throw new Error(`search.messages failed: ${outcome.error.message}`);
        times[`${into}Hits`] = outcome.result.hits.length;
      }
    }
    return times;
  } finally {
    await host.close();
  }
}

/** Opening the largest and the small session in Chromium, alternating (median of rounds). */
async function openTimes(
  dataDir: string,
  largest: { sessionId: string; newest: string },
  small: { sessionId: string; newest: string },
): Promise<{ largest: number; small: number }> {
  const host = new CairnHost(dataDir, 'bench-big-record-token', await freePort());
  await host.start();
  const browser = await launchChromium();
  try {
    const { session: other } = await host.call('session.create', { title: 'Elsewhere' });
    const page = await benchPage(browser);
    await host.open(page);
    for (const sessionId of [other.sessionId, largest.sessionId, small.sessionId])
      await page.locator(`[data-testid="session-row"][data-session-id="${sessionId}"]`).waitFor();
    const times = { largest: [] as number[], small: [] as number[] };
    for (let round = 0; round < OPEN_ROUNDS; round += 1) {
      for (const [target, into] of [
        [largest, 'largest'],
        [small, 'small'],
      ] as const) {
        await openSession(page, other.sessionId, null);
        times[into].push(await openSession(page, target.sessionId, target.newest));
      }
    }
    return { largest: percentile(times.largest, 50), small: percentile(times.small, 50) };
  } finally {
    await browser.close();
    await host.stop();
  }
}
