import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openStores, type Stores } from '../../storage/stores';
import { tempDataDir } from '../../testing/host-fixture';
import { endRun, openNextRun, openTurn, suspendRun } from './run-lifecycle';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const OWNER = 'src-main/runtime/turns/run-lifecycle.ts';

/**
 * What opens, suspends or ends a run in the record: the turn store's run writes and the ledger events
 * of a run's life. Storage defines them (`turn-store.ts`, `ledger-store.ts`); only the owner uses them.
 */
const RUN_LIFE_WRITES: ReadonlyArray<{ what: string; pattern: RegExp }> = [
  { what: 'a run status write (setRunStatus)', pattern: /\bsetRunStatus\b/ },
  { what: 'a new turn and run (insertTurn)', pattern: /\binsertTurn\b/ },
  { what: 'a new run (turns.openRun)', pattern: /\bturns\s*\.\s*openRun\b|\bopenRun\s*[:(]/ },
  { what: "the ledger's run_terminal", pattern: /['"`]run_terminal['"`]/ },
  { what: "the ledger's run_waiting", pattern: /['"`]run_waiting['"`]/ },
  { what: "the ledger's run_opened", pattern: /['"`]run_opened['"`]/ },
  { what: 'SQL that changes runs', pattern: /\b(?:UPDATE|INSERT\s+(?:OR\s+\w+\s+)?INTO|DELETE\s+FROM)\s+runs\b/i },
];

/** Storage that defines the writes, and copies a branch's already-ended runs (`INSERT OR IGNORE INTO runs`). */
const DEFINERS: Readonly<Record<string, readonly string[]>> = {
  'src-main/storage/turn-store.ts': ['setRunStatus', 'insertTurn', 'turns.openRun', 'SQL'],
  'src-main/storage/ledger-store.ts': ['run_terminal', 'run_waiting', 'run_opened'],
  'src-main/storage/branch-store.ts': ['SQL'],
};

function productionSources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory())
      return name === 'testing' || name === 'node_modules' ? [] : productionSources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Every place outside the owner that writes a run's life: `file: what`. */
function runLifeWritersIn(files: ReadonlyArray<{ path: string; text: string }>): string[] {
  return files.flatMap(({ path, text }) => {
    if (path === OWNER) return [];
    const allowed = DEFINERS[path] ?? [];
    return RUN_LIFE_WRITES.filter(
      ({ what, pattern }) => pattern.test(text) && !allowed.some((name) => what.includes(name)),
    ).map(({ what }) => `${path}: ${what}`);
  });
}

describe('the run lifecycle owns a run’s life', () => {
  it('only run-lifecycle.ts opens, suspends or ends a run in the record', () => {
    const files = productionSources(join(ROOT, 'src-main')).map((file) => ({
      path: relative(ROOT, file).replaceAll('\\', '/'),
      text: readFileSync(file, 'utf8'),
    }));
    expect(files.some((file) => file.path === OWNER)).toBe(true);
    expect(runLifeWritersIn(files)).toEqual([]);
  });

  it('finds a direct write of a run’s end, status or opening anywhere else', () => {
    const found = runLifeWritersIn([
      {
        path: 'src-main/runtime/workhub/x.ts',
        text: "stores.ledger.append(runId, [{ kind: 'run_terminal', payload }], now);",
      },
      {
        path: 'src-main/runtime/goals/y.ts',
        text: "stores.turns.setRunStatus(runId, { status: 'cancelled', terminalReason: 'user', now });",
      },
      {
        path: 'src-main/runtime/goals/z.ts',
        text: 'const { openRun } = stores.turns; stores.turns.openRun({ sessionId, turnId, runId, kind, now });',
      },
      { path: 'src-main/storage/goal-store.ts', text: 'db.prepare("UPDATE runs SET status = \'failed\'")' },
      { path: OWNER, text: "stores.turns.setRunStatus(runId, ending); kind: 'run_terminal'" },
      { path: 'src-main/storage/ledger-store.ts', text: "| 'run_terminal'" },
    ]);
    expect(found).toEqual([
      "src-main/runtime/workhub/x.ts: the ledger's run_terminal",
      'src-main/runtime/goals/y.ts: a run status write (setRunStatus)',
      'src-main/runtime/goals/z.ts: a new run (turns.openRun)',
      'src-main/storage/goal-store.ts: SQL that changes runs',
    ]);
  });
});

describe('a run’s life in the record', () => {
  let stores: Stores | null = null;
  let cleanup: (() => void) | null = null;
  afterEach(() => {
    stores?.close();
    cleanup?.();
    stores = null;
    cleanup = null;
  });

  function open(): Stores {
    const temp = tempDataDir();
    cleanup = temp.cleanup;
    stores = openStores(temp.dir);
    stores.sessions.insert({
      sessionId: 's1',
      title: 'S',
      titleSource: 'user',
      workspacePath: null,
      connectionId: 'c1',
      model: null,
      permissionMode: 'ask',
      now: 0,
    });
    return stores;
  }

  const kinds = (s: Stores, runId: string) => s.ledger.entries(runId).map((entry) => entry.kind);

  it('opens, suspends and ends each run with one terminal event; a second end writes nothing', () => {
    const s = open();
    const first = { sessionId: 's1', turnId: 't1', runId: 'r1' };
    const next = { sessionId: 's1', turnId: 't1', runId: 'r2' };
    s.transaction(() => openTurn(s, { ...first, origin: 'user', text: 'hi', maxSteps: 5 }, { origin: 'user' }, 1));
    s.transaction(() =>
      suspendRun(s, first, { interactionId: 'i1', request: { kind: 'network', host: 'example.org', port: 443 } }, 2),
    );
    expect(s.turns.getRun('r1')?.status).toBe('waiting');
    s.transaction(() => endRun(s, first, { status: 'completed', terminalReason: 'interaction_answered' }, 3));
    s.transaction(() => openNextRun(s, { ...next, kind: 'continuation' }, { after: 'i1' }, 3));
    const ended = s.transaction(() =>
      endRun(
        s,
        next,
        { status: 'failed', terminalReason: 'provider_error', errorCode: 'provider_error', errorMessage: 'down' },
        4,
      ),
    );
    expect(ended).toEqual([]);
    expect(s.transaction(() => endRun(s, next, { status: 'cancelled', terminalReason: 'user' }, 5))).toBeNull();
    expect(
      s.transaction(() => endRun(s, { ...next, runId: 'nope' }, { status: 'cancelled', terminalReason: 'user' }, 5)),
    ).toBeNull();

    expect(kinds(s, 'r1')).toEqual(['run_opened', 'interaction_requested', 'run_waiting', 'run_terminal']);
    expect(kinds(s, 'r2')).toEqual(['run_opened', 'run_terminal']);
    expect(s.ledger.entries('r2').at(-1)?.payload).toEqual({
      status: 'failed',
      terminalReason: 'provider_error',
      errorCode: 'provider_error',
      errorMessage: 'down',
    });
    const turn = s.turns.getTurn('s1', 't1');
    expect(turn?.status).toBe('failed');
    expect(turn?.latestRun).toMatchObject({
      runId: 'r2',
      kind: 'continuation',
      status: 'failed',
      terminalReason: 'provider_error',
    });
  });
});
