import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright';
import { CairnHost, freePort } from '../e2e/cairn-host';
import { createHost } from '../src-main/host/create-host';
import { silentLogger } from '../src-main/runtime/ports/ports';
import type { BenchResult } from './bench-result';
import { launchChromium, percentile } from './browser';
import { initialChunks } from '../scripts/initial-chunks.mjs';
import { seedHistory } from './seed-history';

/** Rounds of each, alternating: the median of 15 holds still where that of 7 moved by ±0.2 between runs of the same build. */
const ROUNDS = 15;

/**
 * Renderer first load: from navigation to an interactive composer (the open session's message box
 * in the DOM and enabled) in a fresh browser context, with 1,000 sessions in the sidebar against 10,
 * in alternating rounds of the same run (median); and the build's initial JavaScript, what every first
 * load fetches before any view asks for more. Needs `npm run build`.
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
    const fewTimes: number[] = [];
    const manyTimes: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      fewTimes.push(await timeToComposer(browser, few));
      manyTimes.push(await timeToComposer(browser, many));
    }
    const fewMs = percentile(fewTimes, 50);
    const manyMs = percentile(manyTimes, 50);
    const chunks = initialChunks((path) => readFileSync(resolve('out', 'renderer', path), 'utf8'));
    const initialKb = [...chunks.values()].reduce((total, code) => total + Buffer.byteLength(code), 0) / 1000;
    return [
      { name: 'first-load: navigation → interactive composer, 10 sessions (median)', value: fewMs, unit: 'ms' },
      {
        name: 'first-load: navigation → interactive composer, 1,000 sessions (median)',
        value: manyMs,
        unit: 'ms',
        ratio: manyMs / fewMs,
        target: '≤ 1.2 × the 10-session one',
      },
      {
        name: 'first-load: initial JavaScript (the entry and its static imports, minified)',
        value: initialKb,
        unit: 'KB',
        target: '≤ 450 KB',
      },
    ];
  } finally {
    await browser.close();
    for (const host of hosts) await host.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

/** Milliseconds from navigation start until the composer of the session in the address is enabled (a fresh context: no cache). */
async function timeToComposer(browser: Browser, host: CairnHost): Promise<number> {
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
    return (await ready.jsonValue()) ?? Number.NaN;
  } finally {
    await context.close();
  }
}
