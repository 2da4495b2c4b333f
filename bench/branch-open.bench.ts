import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CairnHost, freePort } from '../e2e/cairn-host';
import { seedLongSession } from '../e2e/seed';
import type { BenchResult } from './bench-result';
import { benchPage, launchChromium, percentile } from './browser';
import { openSession } from './session-open.bench';

const ROUNDS = 7;
const TURNS = 2500;

/**
 * A branch of a 5,000-message session (Edit on its last message: 4,998 messages copied, the edited
 * message and its answer) opens like any other session: against a 50-message one, in the same run.
 * Also reports how long session.branch took to copy the conversation.
 */
export async function benchBranchOpen(): Promise<BenchResult[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cairn-bench-branch-'));
  const host = new CairnHost(dataDir, 'bench-branch-token', await freePort());
  await host.start();
  const browser = await launchChromium();
  try {
    const source = await seedLongSession(host, TURNS);
    const short = await seedLongSession(host, 25);
    const { items } = await host.call('transcript.page', { sessionId: source, limit: 2 });
    const last = items.find((item) => item.kind === 'user_message');
    if (last === undefined) throw new Error('The seeded session has no last message');
    const started = performance.now();
    const { session: branch, turn } = await host.call('session.branch', {
      sessionId: source,
      atItemId: last.itemId,
      mode: 'edit',
      text: '/stream 1 0 branch message',
      requestId: 'bench-branch',
    });
    const copyMs = performance.now() - started;
    for (;;) {
      const { turn: now } = await host.call('turn.query', {
        sessionId: branch.sessionId,
        turnId: turn?.turnId ?? 'bench-branch',
      });
      if (now.status === 'completed') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const { session: other } = await host.call('session.create', { title: 'Elsewhere' });
    const page = await benchPage(browser);
    await host.open(page);
    const branchTimes: number[] = [];
    const shortTimes: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [sessionId, newest, times] of [
        [branch.sessionId, 'branch message', branchTimes],
        [short, 'seed message 25', shortTimes],
      ] as const) {
        await openSession(page, other.sessionId, null);
        times.push(await openSession(page, sessionId, newest));
      }
    }
    const branchMs = percentile(branchTimes, 50);
    const shortMs = percentile(shortTimes, 50);
    return [
      { name: `session.branch copying ${TURNS * 2 - 2} messages`, value: copyMs, unit: 'ms' },
      { name: 'open a 50-message session (median)', value: shortMs, unit: 'ms' },
      {
        name: 'open a branched 5,000-message session (median)',
        value: branchMs,
        unit: 'ms',
        ratio: branchMs / shortMs,
        target: '≤ 1.5 × the 50-message one',
      },
    ];
  } finally {
    await browser.close();
    await host.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
