import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright';
import { CairnHost, freePort } from '../e2e/cairn-host';
import { createHost } from '../src-main/host/create-host';
import { silentLogger } from '../src-main/runtime/ports/ports';
import type { BenchResult } from './bench-result';
import { benchPage, launchChromium } from './browser';
import { seedHistory } from './seed-history';
import { openSession } from './session-open.bench';

const SESSIONS = 50;
/** Sessions created while the page is open, each listed in the sidebar: what a listed session costs the page. */
const LISTED = 200;
/** About five tokens a chunk ("chunk 123/20000 "): some 100k tokens in all. */
const CHUNKS = 20_000;

/**
 * Renderer memory: the page's JS heap (after a full GC, through the DevTools protocol) after streaming
 * about 100k tokens into one session and switching through 50 sessions once, against the same after
 * switching through them a second time (no leak: within 1.2×); and what each session listed in the
 * sidebar costs the page, from 200 created while it is open.
 */
export async function benchRendererMemory(): Promise<BenchResult[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cairn-bench-renderer-memory-'));
  await (await createHost({ dataDir, logger: silentLogger })).close();
  seedHistory(dataDir, SESSIONS, 5);
  const host = new CairnHost(dataDir, 'bench-renderer-memory-token', await freePort());
  const browser = await launchChromium();
  try {
    await host.start();
    const { session: streamed } = await host.call('session.create', { title: 'Streamed' });
    const page = await benchPage(browser);
    await host.open(page);
    const heap = await heapMeter(page);
    const atStart = await heap();
    await page
      .locator(`[data-testid="session-row"][data-session-id="${streamed.sessionId}"]`)
      .waitFor({ timeout: 60_000 });

    await openSession(page, streamed.sessionId, null);
    await host.call('turn.start', {
      sessionId: streamed.sessionId,
      turnId: 'long-answer',
      text: `/stream ${CHUNKS} 0`,
    });
    await page.getByTestId('transcript').getByText(`chunk ${CHUNKS}/${CHUNKS}.`).waitFor({ timeout: 600_000 });
    const afterStream = await heap();

    const sessionIds = [...Array.from({ length: SESSIONS }, (_, index) => `bench-${index}`), streamed.sessionId];
    // Each session shown whole before the next (its transcript read, not the last one's still on screen):
    // a heap read while the 100k-token one still loads measured when it came, not what stays.
    const pass = async () => {
      for (const sessionId of sessionIds) {
        await openSession(page, sessionId, null);
        await page.waitForFunction(
          (id) =>
            new URLSearchParams(location.hash.slice(1)).get('session') === id &&
            document.querySelector('[data-testid="transcript"]') !== null &&
            document.querySelector('.transcript-loading') === null,
          sessionId,
          { timeout: 30_000 },
        );
      }
    };
    await pass();
    const afterFirst = await heap();
    await pass();
    const afterSecond = await heap();
    const rows = page.getByTestId('session-row');
    const rowsBefore = await rows.count();
    for (let index = 0; index < LISTED; index += 1) await host.call('session.create', { title: `Listed ${index}` });
    await page.waitForFunction(
      (count) => document.querySelectorAll('[data-testid="session-row"]').length >= count,
      rowsBefore + LISTED,
      { timeout: 60_000 },
    );
    const afterListing = await heap();
    return [
      { name: 'renderer-memory: JS heap after start', value: atStart, unit: 'MB' },
      {
        name: `renderer-memory: JS heap after streaming ~100k tokens (${CHUNKS.toLocaleString('en')} deltas)`,
        value: afterStream,
        unit: 'MB',
      },
      {
        name: `renderer-memory: JS heap after switching through ${SESSIONS + 1} sessions`,
        value: afterFirst,
        unit: 'MB',
      },
      {
        name: 'renderer-memory: JS heap after switching through them again',
        value: afterSecond,
        unit: 'MB',
        ratio: afterSecond / afterFirst,
        target: '≤ 1.2 × after the first pass',
      },
      {
        name: `renderer-memory: JS heap per session listed in the sidebar (${LISTED} created while the page is open)`,
        value: ((afterListing - afterSecond) * 1024) / LISTED,
        unit: 'KB',
      },
    ];
  } finally {
    await browser.close();
    await host.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The page's used JS heap in MB, measured after a full garbage collection. */
async function heapMeter(page: Page): Promise<() => Promise<number>> {
  const cdp = await page.context().newCDPSession(page);
  return async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize } = await cdp.send('Runtime.getHeapUsage');
    return usedSize / 1024 / 1024;
  };
}
