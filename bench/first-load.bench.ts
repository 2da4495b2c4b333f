import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright';
import { CairnHost, freePort } from '../e2e/cairn-host';
import { createHost } from '../src-main/host/create-host';
import { silentLogger } from '../src-main/runtime/core/ports';
import type { BenchResult } from './bench-result';
import { launchChromium, percentile } from './browser';
import { seedHistory } from './seed-history';

/** Rounds of each, alternating: the median of 15 holds still where that of 7 moved by ±0.2 between runs of the same build. */
const ROUNDS = 15;

/**
 * Renderer first load: from navigation to an interactive composer (the open session's message box
 * in the DOM and enabled) in a fresh browser context, with 1,000 sessions in the sidebar against 10,
 * in alternating rounds of the same run (median); and the JavaScript the page had fetched by then
 * (the budget for the first load's code). Needs `npm run build`.
 */
export async function benchFirstLoad(): Promise<BenchResult[]> {
  const browser = await launchChromium();
  const hosts: CairnHost[] = [];
  const dirs: string[] = [];
  try {
    const start = async (sessions: number) => {
      const dataDir = mkdtempSync(join(tmpdir(), `cairn-bench-first-load-${sessions}-`));
      dirs.push(dataDir);
      await (await createHost({ dataDir, logger: silentLogger })).close();
      seedHistory(dataDir, sessions, 5);
      const host = new CairnHost(dataDir, 'bench-first-load-token', await freePort());
      hosts.push(host);
      await host.start();
      return host;
    };
    const few = await start(10);
    const many = await start(1_000);
    const fewLoads: FirstLoad[] = [];
    const manyLoads: FirstLoad[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      fewLoads.push(await timeToComposer(browser, few));
      manyLoads.push(await timeToComposer(browser, many));
    }
    const medianMs = (loads: FirstLoad[]) =>
      percentile(
        loads.map((load) => load.ms),
        50,
      );
    const fewMs = medianMs(fewLoads);
    const manyMs = medianMs(manyLoads);
    const kilobytes = (loads: FirstLoad[]) => Math.max(...loads.map((load) => load.scriptBytes)) / 1000;
    return [
      { name: 'first-load: navigation → interactive composer, 10 sessions (median)', value: fewMs, unit: 'ms' },
      { name: 'first-load: navigation → interactive composer, 1,000 sessions (median)', value: manyMs, unit: 'ms', ratio: manyMs / fewMs, target: '≤ 1.2 × the 10-session one' },
      { name: 'first-load: JavaScript loaded by then (minified), 10 sessions (most)', value: kilobytes(fewLoads), unit: 'KB' },
      {
        name: 'first-load: JavaScript loaded by then (minified), 1,000 sessions (most)',
        value: kilobytes(manyLoads),
        unit: 'KB',
        ratio: kilobytes(manyLoads) / kilobytes(fewLoads),
        target: '≤ 450 KB',
      },
    ];
  } finally {
    await browser.close();
    for (const host of hosts) await host.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

interface FirstLoad {
  readonly ms: number;
  /** The JavaScript the page had fetched by then, as served (minified, not compressed). */
  readonly scriptBytes: number;
}

/**
 * Milliseconds from navigation start until the composer of the session in the address is enabled (a
 * fresh context: no cache), and how much JavaScript the page had fetched by then.
 */
async function timeToComposer(browser: Browser, host: CairnHost): Promise<FirstLoad> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${host.url}&session=bench-0`);
    const ready = await page.waitForFunction(
      () => {
        const input = document.querySelector<HTMLTextAreaElement>('textarea[aria-label="Message"]');
        return input !== null && !input.disabled && input.getClientRects().length > 0 ? performance.now() : null;
      },
      undefined,
      { polling: 'raf', timeout: 60_000 },
    );
    const ms = (await ready.jsonValue()) ?? Number.NaN;
    const scriptBytes = await page.evaluate(
      (until) =>
        performance
          .getEntriesByType('resource')
          .filter((entry): entry is PerformanceResourceTiming => entry instanceof PerformanceResourceTiming && /\.m?js(\?|$)/.test(entry.name) && entry.responseEnd <= until)
          .reduce((total, entry) => total + entry.decodedBodySize, 0),
      ms,
    );
    return { ms, scriptBytes };
  } finally {
    await context.close();
  }
}
