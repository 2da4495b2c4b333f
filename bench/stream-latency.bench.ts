import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CairnHost, freePort } from '../e2e/cairn-host';
import { connectProtocolClient } from '../src-main/testing/protocol-client';
import type { BenchResult } from './bench-result';
import { benchPage, launchChromium, percentile } from './browser';

const CHUNKS = 600;
const INTERVAL_MS = 5; // 200 deltas per second

/**
 * Streaming: the time from a delta leaving the host to its text being in the DOM, at 200 deltas per
 * second. "Leaving the host" is when a protocol client on the same loopback receives the event
 * (within a millisecond of the host's send); "in the DOM" is when a MutationObserver in the page first
 * sees the chunk's text. Both read the same wall clock.
 */
export async function benchStreamLatency(): Promise<BenchResult[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cairn-bench-stream-'));
  const host = new CairnHost(dataDir, 'bench-stream-token', await freePort());
  await host.start();
  const browser = await launchChromium();
  const watcher = await connectProtocolClient(`ws://127.0.0.1:${host.port}/`, { token: host.token });
  try {
    const { session } = await host.call('session.create', { title: 'Stream bench' });
    const page = await benchPage(browser);
    await host.open(page);
    await page.locator(`[data-testid="session-row"][data-session-id="${session.sessionId}"]`).click();
    await page.getByTestId('transcript').waitFor();
    await page.evaluate((chunks) => {
      const seen = new Map<number, number>();
      (window as unknown as { __seen: Map<number, number> }).__seen = seen;
      const scan = () => {
        const now = performance.timeOrigin + performance.now();
        const text = document.querySelector('[data-testid="transcript"]')?.textContent ?? '';
        for (const match of text.matchAll(new RegExp(`chunk (\\d+)/${chunks}`, 'g'))) {
          const index = Number(match[1]);
          if (!seen.has(index)) seen.set(index, now);
        }
      };
      new MutationObserver(scan).observe(document.body, { subtree: true, childList: true, characterData: true });
    }, CHUNKS);

    const leftHost = new Map<number, number>();
    watcher.socket.on('message', (data) => {
      const now = performance.timeOrigin + performance.now();
      for (const match of data.toString().matchAll(new RegExp(`chunk (\\d+)/${CHUNKS}`, 'g'))) {
        const index = Number(match[1]);
        if (!leftHost.has(index)) leftHost.set(index, now);
      }
    });
    await host.call('turn.start', {
      sessionId: session.sessionId,
      turnId: 'stream',
      text: `/stream ${CHUNKS} ${INTERVAL_MS}`,
    });
    await page.waitForFunction(
      (chunks) => ((window as unknown as { __seen: Map<number, number> }).__seen?.size ?? 0) >= chunks,
      CHUNKS,
      { timeout: 60_000 },
    );
    const seen = new Map<number, number>(
      await page.evaluate(() => [...(window as unknown as { __seen: Map<number, number> }).__seen]),
    );
    const latencies = [...leftHost].flatMap(([index, sent]) => {
      const shown = seen.get(index);
      return shown === undefined ? [] : [Math.max(0, shown - sent)];
    });
    return [
      {
        name: `stream: host → DOM latency p50 (${1000 / INTERVAL_MS} deltas/s)`,
        value: percentile(latencies, 50),
        unit: 'ms',
      },
      {
        name: `stream: host → DOM latency p95 (${1000 / INTERVAL_MS} deltas/s)`,
        value: percentile(latencies, 95),
        unit: 'ms',
        target: 'p95 < 50 ms',
      },
    ];
  } finally {
    await watcher.close();
    await browser.close();
    await host.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
