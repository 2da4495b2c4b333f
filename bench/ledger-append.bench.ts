import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventBus } from '../src-main/runtime/ports/event-bus';
import { sequentialIds, silentLogger, systemClock } from '../src-main/runtime/ports/ports';
import { RunRecorder } from '../src-main/runtime/turns/run-recorder';
import { DATABASE_FILE } from '../src-main/storage/database';
import { openStores } from '../src-main/storage/stores';
import type { BenchResult } from './bench-result';

const EVENTS = 50_000;
const ROUNDS = 3;

/**
 * Ledger append: events per second through the host's durable append path (RunRecorder → ledger
 * store, one transaction per flush) against a raw better-sqlite3 prepared insert loop in one
 * transaction, on the same schema and pragmas (WAL, synchronous NORMAL, foreign keys), in the same run.
 */
export function benchLedgerAppend(): BenchResult[] {
  const raw = best(() => rawInsert());
  const host = best(() => hostPath(EVENTS));
  const hostFrequentFlush = best(() => hostPath(64));
  return [
    { name: 'ledger append: raw prepared insert, one transaction', value: raw, unit: 'events/s' },
    {
      name: 'ledger append: host durable path (RunRecorder, one flush)',
      value: host,
      unit: 'events/s',
      ratio: host / raw,
      target: '≥ 0.5 of raw',
    },
    {
      name: 'ledger append: host durable path, a commit every 64 events',
      value: hostFrequentFlush,
      unit: 'events/s',
      ratio: hostFrequentFlush / raw,
    },
  ];
}

function best(measure: () => number): number {
  let top = 0;
  for (let round = 0; round < ROUNDS; round += 1) top = Math.max(top, measure());
  return top;
}

function withRun<T>(work: (dataDir: string, runId: string) => T): T {
  const dataDir = mkdtempSync(join(tmpdir(), 'cairn-bench-'));
  try {
    const stores = openStores(dataDir);
    stores.transaction(() => {
      stores.sessions.insert({
        sessionId: 's',
        title: 'bench',
        titleSource: 'user',
        workspacePath: null,
        connectionId: 'offline-demo',
        model: null,
        permissionMode: 'ask',
        now: 0,
      });
      stores.turns.insertTurn({
        sessionId: 's',
        turnId: 't',
        origin: 'user',
        text: 'bench',
        maxSteps: 1,
        runId: 'r',
        now: 0,
      });
    });
    stores.close();
    return work(dataDir, 'r');
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function payload(index: number) {
  return { step: index, inputTokens: 1200 + index, outputTokens: 48, model: 'scripted' };
}

function rawInsert(): number {
  return withRun((dataDir, runId) => {
    const db = new Database(join(dataDir, DATABASE_FILE));
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON'); // the same configuration the host's database runs with
    const insert = db.prepare(
      'INSERT INTO ledger (run_id, sequence, kind, payload, recorded_at) VALUES (?, ?, ?, ?, ?)',
    );
    const started = performance.now();
    db.transaction(() => {
      for (let index = 1; index <= EVENTS; index += 1)
        insert.run(runId, index, 'usage', JSON.stringify(payload(index)), 0);
    })();
    const seconds = (performance.now() - started) / 1000;
    db.close();
    return EVENTS / seconds;
  });
}

function hostPath(flushEvery: number): number {
  return withRun((dataDir, runId) => {
    const stores = openStores(dataDir);
    const recorder = new RunRecorder(
      {
        stores,
        bus: new EventBus('bench', silentLogger),
        clock: systemClock,
        ids: sequentialIds(),
        logger: silentLogger,
      },
      { sessionId: 's', turnId: 't', runId },
      'offline-demo',
      60_000,
    );
    const started = performance.now();
    for (let index = 1; index <= EVENTS; index += 1) {
      recorder.record({ kind: 'usage', payload: payload(index) });
      if (index % flushEvery === 0) recorder.flush();
    }
    recorder.flush();
    const seconds = (performance.now() - started) / 1000;
    recorder.close();
    stores.close();
    return EVENTS / seconds;
  });
}
