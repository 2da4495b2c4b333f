import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright';
import { CairnHost, freePort } from '../e2e/cairn-host';
import { seedLongSession } from '../e2e/seed';
import type { BenchResult } from './bench-result';
import { benchPage, launchChromium, percentile } from './browser';

const ROUNDS = 7;

/**
 * Opening a 10,000-message session against a 100-message one, in Chromium, in the same run: the time
 * from clicking the session in the sidebar to its newest message being in the DOM (median of rounds).
 */
export async function benchSessionOpen(): Promise<BenchResult[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cairn-bench-open-'));
  const host = new CairnHost(dataDir, 'bench-open-token', await freePort());
  await host.start();
  const browser = await launchChromium();
  try {
    const long = await seedLongSession(host, 5000);
    const short = await seedLongSession(host, 50);
    const { session: other } = await host.call('session.create', { title: 'Elsewhere' });
    const page = await benchPage(browser);
    await host.open(page);
    const longTimes: number[] = [];
    const shortTimes: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [sessionId, newest, times] of [
        [long, 'seed message 5000', longTimes],
        [short, 'seed message 50', shortTimes],
      ] as const) {
        await openSession(page, other.sessionId, null);
        times.push(await openSession(page, sessionId, newest));
      }
    }
    const longMs = percentile(longTimes, 50);
    const shortMs = percentile(shortTimes, 50);
    return [
      { name: 'open a 100-message session (median)', value: shortMs, unit: 'ms' },
      {
        name: 'open a 10,000-message session (median)',
        value: longMs,
        unit: 'ms',
        ratio: longMs / shortMs,
        target: '≤ 1.5 × the 100-message one',
      },
    ];
  } finally {
    await browser.close();
    await host.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Clicks the session's row and returns the milliseconds until `newest` (or the view) is shown. */
export async function openSession(page: Page, sessionId: string, newest: string | null): Promise<number> {
  return (await openSessionTimed(page, sessionId, newest)).shown;
}

/**
 * Clicks the session's row; returns the milliseconds from the click to the frame after the next paint
 * (what INP measures) and to `newest` (or the view) being shown.
 */
export async function openSessionTimed(
  page: Page,
  sessionId: string,
  newest: string | null,
): Promise<{ nextFrame: number; shown: number }> {
  return page.evaluate(
    async ({ sessionId, newest }) => {
      const row = document.querySelector<HTMLElement>(`[data-testid="session-row"][data-session-id="${sessionId}"]`);
      if (row === null) throw new Error(`No sidebar row for ${sessionId}`);
      const clickable = row.querySelector<HTMLElement>('button, a, [role="button"]') ?? row;
      const started = performance.now();
      clickable.click();
      const nextFrame = new Promise<number>((resolve) =>
        requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - started), 0)),
      );
      const shown = () => {
        if (newest === null) return document.querySelector('[data-testid="transcript"]') !== null;
        const messages = document.querySelectorAll('[data-testid="message"][data-kind="user_message"]');
        return [...messages].some((node) => node.textContent?.includes(newest) === true);
      };
      while (!shown()) {
        await new Promise((resolve) => requestAnimationFrame(resolve));
        if (performance.now() - started > 30_000) throw new Error(`Session ${sessionId} did not open in 30 s`);
      }
      const shownMs = performance.now() - started;
      return { nextFrame: await nextFrame, shown: shownMs };
    },
    { sessionId, newest },
  );
}
