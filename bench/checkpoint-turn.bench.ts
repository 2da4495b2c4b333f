import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChangeEvent } from '../src-shared/events';
import { createHost, type Host } from '../src-main/host/create-host';
import { silentLogger } from '../src-main/runtime/core/ports';
import type { BenchResult } from './bench-result';

const FOLDERS = 100;
const FILES_PER_FOLDER = 100;
const ROUNDS = 5;

/**
 * Turn start on a 10,000-file workspace with file checkpoints against a host with them turned off,
 * in the same run. "Turn start" is turn.start until the turn's first tool call is recorded; the
 * checkpoint is taken lazily, before the turn's first write, so the bench also reports (without a
 * ratio target) how much later that first write lands, and the one-time first checkpoint of a new
 * workspace (every file hashed into the shadow repository).
 */
export async function benchCheckpointTurn(): Promise<BenchResult[]> {
  const workspace = mkdtempSync(join(tmpdir(), 'cairn-bench-ckpt-ws-'));
  for (let folder = 0; folder < FOLDERS; folder += 1) {
    mkdirSync(join(workspace, `d${folder}`));
    for (let file = 0; file < FILES_PER_FOLDER; file += 1) writeFileSync(join(workspace, `d${folder}`, `f${file}.txt`), `folder ${folder} file ${file}\n`);
  }
  const on = await benchHost(false);
  const off = await benchHost(true);
  try {
    const onSession = await sessionIn(on.host, workspace);
    const offSession = await sessionIn(off.host, workspace);
    const first = await timedTurn(on.host, onSession, 'warm', 0);
    await timedTurn(off.host, offSession, 'warm', 0);
    const starts = { on: [] as number[], off: [] as number[] };
    const writes = { on: [] as number[], off: [] as number[] };
    for (let round = 1; round <= ROUNDS; round += 1) {
      for (const [name, bench, sessionId] of [
        ['off', off, offSession],
        ['on', on, onSession],
      ] as const) {
        const timing = await timedTurn(bench.host, sessionId, `r${round}`, round);
        starts[name].push(timing.start);
        writes[name].push(timing.write);
      }
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
    const [startOff, startOn, writeOff, writeOn] = [median(starts.off), median(starts.on), median(writes.off), median(writes.on)];
    return [
      { name: 'turn start, 10,000-file workspace, checkpoints off (median)', value: startOff, unit: 'ms' },
      { name: 'turn start, 10,000-file workspace, checkpoints on (median)', value: startOn, unit: 'ms', ratio: startOn / startOff, target: '≤ 1.1' },
      { name: 'first write of a turn lands, checkpoints off (median)', value: writeOff, unit: 'ms' },
      { name: 'first write of a turn lands, checkpoints on (median)', value: writeOn, unit: 'ms', ratio: writeOn / writeOff },
      { name: 'first checkpoint of a new 10,000-file workspace (once)', value: first.write, unit: 'ms' },
    ];
  } finally {
    await on.close();
    await off.close();
    rmSync(workspace, { recursive: true, force: true });
  }
}

interface BenchHost {
  readonly host: Host;
  readonly events: ChangeEvent[];
  close(): Promise<void>;
}

async function benchHost(disabled: boolean): Promise<BenchHost> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cairn-bench-ckpt-data-'));
  const host = await createHost({ dataDir, logger: silentLogger, modelTitles: false, checkpoints: { disabled } });
  const events: ChangeEvent[] = [];
  host.subscribe((event) => events.push(event));
  return {
    host,
    events,
    async close() {
      await host.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function sessionIn(host: Host, workspace: string): Promise<string> {
  const outcome = await host.invoke('session.create', { workspacePath: workspace, permissionMode: 'full' });
  if (!outcome.ok) throw new Error(outcome.error.message);
  return outcome.result.session.sessionId;
}

/** One turn writing one file: ms until its tool call is recorded (start) and until its result is (write). */
async function timedTurn(host: Host, sessionId: string, turnId: string, round: number): Promise<{ start: number; write: number }> {
  let call = 0;
  let result = 0;
  let ended = false;
  const started = performance.now();
  const done = new Promise<void>((resolve) => {
    const unsubscribe = host.subscribe((event) => {
      if (event.kind === 'transcript.appended' && event.item.sessionId === sessionId && event.item.kind === 'tool_call' && call === 0) call = performance.now() - started;
      if (event.kind === 'transcript.appended' && event.item.sessionId === sessionId && event.item.kind === 'tool_result' && result === 0) result = performance.now() - started;
      if (event.kind === 'turn.changed' && event.turn.turnId === turnId && event.turn.sessionId === sessionId && event.turn.status === 'completed') ended = true;
      if (ended && result > 0) {
        unsubscribe();
        resolve();
      }
    });
  });
  const outcome = await host.invoke('turn.start', { sessionId, turnId, text: `/tool write_file {"path":"bench/out-${round}.txt","content":"round ${round}\\n"}` });
  if (!outcome.ok) throw new Error(outcome.error.message);
  await done;
  return { start: call, write: result };
}
