import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright';
import { CairnHost, freePort } from '../e2e/cairn-host';
import { connectProtocolClient } from '../src-main/testing/protocol-client';
import type { BenchResult } from './bench-result';
import { benchPage, blankPageKeypressP95, launchChromium, percentile } from './browser';
import { seedLongSessionRows } from '../src-main/testing/long-session-rows';
import { openSession, openSessionTimed } from './session-open.bench';

const TURNS = 5_000; // 10,000 messages
const SHORT_TURNS = 50;
const KEYS = 80;
const STREAM_CHUNKS = 160; // about 5,000 characters of Markdown: headings, inline code, code blocks
const STREAM_INTERVAL_MS = 10;
const OPEN_ROUNDS = 7;
/** The turn whose question the search finds: far back, so the jump must load older pages. */
const SEARCH_TURN = 1_234;

interface PageProbe {
  longTasks: number[];
  keyLatencies: number[];
  seen: Map<number, number>;
}

/**
 * Long-session responsiveness, in Chromium, in a session of 10,000 messages (about 100k tokens) with
 * code blocks and tool calls: composer keypress → next frame p95 and long tasks while typing; a
 * streamed answer of about 5,000 characters of Markdown with code while the transcript scrolls (delta
 * leaving the host → text in the DOM p95, long tasks); opening the session (click → next frame, which
 * is what INP measures, and → its newest message shown), expanding a tool call and jumping to a search
 * hit (click → next frame).
 */
export async function benchLongSession(): Promise<BenchResult[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cairn-bench-long-session-'));
  const host = new CairnHost(dataDir, 'bench-long-session-token', await freePort());
  const browser = await launchChromium();
  try {
    await host.start();
    const { session: template } = await host.call('session.create', { title: 'Tool call template' });
    await host.call('turn.start', {
      sessionId: template.sessionId,
      turnId: 'tool',
      text: '/tool recall {"query":"total"}',
    });
    for (;;) {
      const { turn } = await host.call('turn.query', { sessionId: template.sessionId, turnId: 'tool' });
      if (turn.status === 'completed' || turn.status === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const { session: long } = await host.call('session.create', { title: 'Long session (10,000 messages)' });
    const { session: short } = await host.call('session.create', { title: 'Short session (100 messages)' });
    const { session: other } = await host.call('session.create', { title: 'Elsewhere' });
    await host.stop();
    seedLongSessionRows(dataDir, long.sessionId, template.sessionId, TURNS);
    seedLongSessionRows(dataDir, short.sessionId, template.sessionId, SHORT_TURNS);
    await host.start();

    const page = await benchPage(browser);
    await host.open(page);
    await installProbe(page);
    for (const sessionId of [other.sessionId, short.sessionId, long.sessionId]) {
      await page.locator(`[data-testid="session-row"][data-session-id="${sessionId}"]`).waitFor({ timeout: 60_000 });
    }
    const openTimes: Array<{ nextFrame: number; shown: number }> = [];
    const shortOpenTimes: Array<{ nextFrame: number; shown: number }> = [];
    for (let round = 0; round < OPEN_ROUNDS; round += 1) {
      await openSession(page, other.sessionId, null);
      shortOpenTimes.push(await openSessionTimed(page, short.sessionId, `seed message ${SHORT_TURNS}`));
      await openSession(page, other.sessionId, null);
      openTimes.push(await openSessionTimed(page, long.sessionId, `seed message ${TURNS}`));
    }

    // The same in a 100-message session of the same shape: the baseline for the ratios.
    await openSession(page, short.sessionId, `seed message ${SHORT_TURNS}`);
    const shortRun = await typeAndStream(page, host, short.sessionId);
    await openSession(page, long.sessionId, `seed message ${TURNS}`);
    const longRun = await typeAndStream(page, host, long.sessionId);
    const floor = await blankPageKeypressP95(browser);

    // Expanding a tool call.
    const expand = page.locator('[data-testid="transcript"] button[aria-expanded="false"]').last();
    const expandMs = await expand.count().then((count) => (count === 0 ? Number.NaN : clickToNextFrame(page, expand)));

    // Jumping to a search hit far back in the long session, from another session.
    const jump = await jumpToSearchHit(page, other.sessionId, SEARCH_TURN);

    const over50 = (tasks: number[]) => tasks.filter((duration) => duration > 50).length;
    const p95 = (values: number[]) => percentile(values, 95);
    const longest = (tasks: number[]) => Math.max(0, ...tasks);
    const openMs = percentile(
      openTimes.map((open) => open.shown),
      50,
    );
    const shortOpenMs = percentile(
      shortOpenTimes.map((open) => open.shown),
      50,
    );
    const openFrameMs = p95(openTimes.map((open) => open.nextFrame));
    return [
      {
        name: 'long-session: open the 100-message session, click → newest message shown (median)',
        value: shortOpenMs,
        unit: 'ms',
      },
      {
        name: 'long-session: open the 10,000-message session, click → newest message shown (median)',
        value: openMs,
        unit: 'ms',
        ratio: openMs / shortOpenMs,
      },
      {
        name: 'long-session: open the 100-message session, click → next frame p95',
        value: p95(shortOpenTimes.map((open) => open.nextFrame)),
        unit: 'ms',
      },
      {
        name: 'long-session: open the 10,000-message session, click → next frame p95',
        value: openFrameMs,
        unit: 'ms',
        target: 'INP ≤ 100 ms',
      },
      {
        name: "long-session: a blank page's textarea, keypress → next frame p95 (this machine's floor)",
        value: floor,
        unit: 'ms',
      },
      { name: 'long-session: 100 messages, keypress → next frame p95', value: p95(shortRun.keyLatencies), unit: 'ms' },
      {
        name: 'long-session: 10,000 messages, keypress → next frame p95',
        value: p95(longRun.keyLatencies),
        unit: 'ms',
        ratio: p95(longRun.keyLatencies) / p95(shortRun.keyLatencies),
        target: '≤ 16 ms',
      },
      {
        name: 'long-session: 100 messages, long tasks > 50 ms while typing (longest)',
        value: over50(shortRun.typingTasks),
        unit: `tasks (${longest(shortRun.typingTasks).toFixed(0)} ms)`,
      },
      {
        name: 'long-session: 10,000 messages, long tasks > 50 ms while typing (longest)',
        value: over50(longRun.typingTasks),
        unit: `tasks (${longest(longRun.typingTasks).toFixed(0)} ms)`,
        target: '0',
      },
      { name: 'long-session: expand a tool call, click → next frame', value: expandMs, unit: 'ms', target: '≤ 100 ms' },
      {
        name: 'long-session: jump to a search hit, click → next frame p95',
        value: p95(jump.nextFrame),
        unit: 'ms',
        target: 'INP ≤ 100 ms',
      },
      {
        name: 'long-session: jump to a search hit, click → hit in view (median)',
        value: percentile(jump.inView, 50),
        unit: 'ms',
        target: `≤ 200 ms: ${percentile(jump.inView, 50) <= 200 ? 'met' : 'not met'}`,
      },
      {
        name: 'long-session: 100 messages, streaming while scrolling, delta → DOM p95',
        value: p95(shortRun.deltaLatencies),
        unit: 'ms',
      },
      {
        name: 'long-session: 10,000 messages, streaming while scrolling, delta → DOM p95',
        value: p95(longRun.deltaLatencies),
        unit: 'ms',
        ratio: p95(longRun.deltaLatencies) / p95(shortRun.deltaLatencies),
        target: '≤ 25 ms',
      },
      {
        name: 'long-session: 100 messages, long tasks > 50 ms while streaming (longest)',
        value: over50(shortRun.streamTasks),
        unit: `tasks (${longest(shortRun.streamTasks).toFixed(0)} ms)`,
      },
      {
        name: 'long-session: 10,000 messages, long tasks > 50 ms while streaming (longest)',
        value: over50(longRun.streamTasks),
        unit: `tasks (${longest(longRun.streamTasks).toFixed(0)} ms)`,
        target: '0',
      },
    ];
  } finally {
    await browser.close();
    await host.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Types into the open session's composer, then streams an answer into it while scrolling; what the page saw of each. */
async function typeAndStream(page: Page, host: CairnHost, sessionId: string) {
  // Typing in the composer.
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.click();
  await resetProbe(page);
  for (let key = 0; key < KEYS; key += 1) await page.keyboard.type(String.fromCharCode(97 + (key % 26)), { delay: 25 });
  await page.waitForFunction(
    (keys) => (window as unknown as { __probe: PageProbe }).__probe.keyLatencies.length >= keys,
    KEYS,
    { timeout: 60_000 },
  );
  const typing = await readProbe(page);
  await composer.fill('');

  // A streamed answer while scrolling.
  await resetProbe(page);
  const watcher = await connectProtocolClient(`ws://127.0.0.1:${host.port}/`, { token: host.token });
  const leftHost = new Map<number, number>();
  watcher.socket.on('message', (data) => {
    const now = performance.timeOrigin + performance.now();
    for (const match of data.toString().matchAll(new RegExp(`chunk (\\d+)/${STREAM_CHUNKS}`, 'g'))) {
      const index = Number(match[1]);
      if (!leftHost.has(index)) leftHost.set(index, now);
    }
  });
  await host.call('turn.start', {
    sessionId,
    turnId: 'streamed',
    text: `/stream ${STREAM_CHUNKS} ${STREAM_INTERVAL_MS} markdown`,
  });
  const transcript = page.getByTestId('transcript');
  const box = await transcript.boundingBox();
  if (box !== null) await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (let step = 0; ; step += 1) {
    const done = await page.evaluate(
      (chunks) => (window as unknown as { __probe: PageProbe }).__probe.seen.size >= chunks,
      STREAM_CHUNKS,
    );
    if (done) break;
    if (step > 6000) throw new Error('The streamed answer did not arrive');
    // Up and back down, so the streamed answer stays within the rendered window of the virtual list.
    await page.mouse.wheel(0, step % 2 === 0 ? -150 : 150);
  }
  const streaming = await readProbe(page);
  await watcher.close();
  const deltaLatencies = [...leftHost].flatMap(([index, sent]) => {
    const shown = streaming.seen.get(index);
    return shown === undefined ? [] : [Math.max(0, shown - sent)];
  });
  return {
    keyLatencies: typing.keyLatencies,
    typingTasks: typing.longTasks,
    deltaLatencies,
    streamTasks: streaming.longTasks,
  };
}

/** Long tasks, keydown → the frame after the next paint, and when each streamed chunk's text first appears. */
async function installProbe(page: Page): Promise<void> {
  await page.evaluate((chunks) => {
    const probe: PageProbe = { longTasks: [], keyLatencies: [], seen: new Map() };
    (window as unknown as { __probe: PageProbe }).__probe = probe;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) probe.longTasks.push(entry.duration);
    }).observe({ type: 'longtask', buffered: false });
    document.addEventListener(
      'keydown',
      (event) => {
        const started = event.timeStamp;
        requestAnimationFrame(() => setTimeout(() => probe.keyLatencies.push(performance.now() - started), 0));
      },
      true,
    );
    const pattern = new RegExp(`chunk (\\d+)/${chunks}`, 'g');
    new MutationObserver(() => {
      const now = performance.timeOrigin + performance.now();
      const text = document.querySelector('[data-testid="transcript"]')?.textContent ?? '';
      for (const match of text.matchAll(pattern)) {
        const index = Number(match[1]);
        if (!probe.seen.has(index)) probe.seen.set(index, now);
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  }, STREAM_CHUNKS);
}

async function resetProbe(page: Page): Promise<void> {
  await page.evaluate(() => {
    const probe = (window as unknown as { __probe: PageProbe }).__probe;
    probe.longTasks.length = 0;
    probe.keyLatencies.length = 0;
    probe.seen.clear();
  });
}

async function readProbe(
  page: Page,
): Promise<{ longTasks: number[]; keyLatencies: number[]; seen: Map<number, number> }> {
  const read = await page.evaluate(() => {
    const probe = (window as unknown as { __probe: PageProbe }).__probe;
    return { longTasks: [...probe.longTasks], keyLatencies: [...probe.keyLatencies], seen: [...probe.seen] };
  });
  return { ...read, seen: new Map(read.seen) };
}

/**
 * From `fromSessionId`, searches for the question of turn `turn` and clicks its hit, OPEN_ROUNDS
 * times: click → the frame after the next paint, and click → the hit's message in view (inside the
 * transcript's visible box), checked in the page at every frame — a Playwright wait polls from here
 * with a backoff (20, 50, 100, 100, 500 ms) that added up to 300 ms to the figure.
 */
async function jumpToSearchHit(
  page: Page,
  fromSessionId: string,
  turn: number,
): Promise<{ nextFrame: number[]; inView: number[] }> {
  const nextFrame: number[] = [];
  const inView: number[] = [];
  const search = page.getByRole('searchbox', { name: 'Search sessions' });
  for (let round = 0; round < OPEN_ROUNDS; round += 1) {
    // The sidebar shows every row again once the previous round's search is cleared.
    await page.locator(`[data-testid="session-row"][data-session-id="${fromSessionId}"]`).waitFor({ timeout: 60_000 });
    await openSession(page, fromSessionId, null);
    await search.fill(`seed message ${turn}`);
    const hit = page.getByTestId('message-hit').filter({ hasText: `seed message ${turn}:` });
    await hit.waitFor({ timeout: 60_000 });
    await hit.scrollIntoViewIfNeeded();
    const timed = await hit.evaluate(
      (element, text) =>
        new Promise<{ nextFrame: number; inView: number }>((resolve, reject) => {
          const started = performance.now();
          (element as HTMLElement).click();
          const nextFrame = new Promise<number>((done) =>
            requestAnimationFrame(() => setTimeout(() => done(performance.now() - started), 0)),
          );
          const shown = () => {
            const transcript = document.querySelector('[data-testid="transcript"]');
            const message = [...document.querySelectorAll('[data-search-hit] [data-kind="user_message"]')].find(
              (node) => node.textContent?.includes(text) === true,
            );
            if (transcript === null || message === undefined) return false;
            const box = transcript.getBoundingClientRect();
            const row = message.getBoundingClientRect();
            return row.bottom > box.top && row.top < box.bottom;
          };
          const check = () => {
            if (shown())
              void nextFrame.then((frame) => resolve({ nextFrame: frame, inView: performance.now() - started }));
            else if (performance.now() - started > 60_000) reject(new Error('The search hit did not come into view'));
            else requestAnimationFrame(check);
          };
          check();
        }),
      `seed message ${turn}:`,
    );
    nextFrame.push(timed.nextFrame);
    inView.push(timed.inView);
    await search.fill('');
  }
  return { nextFrame, inView };
}

/** Clicks `target` in the page and returns the milliseconds from the click to the frame after the next paint. */
async function clickToNextFrame(page: Page, target: ReturnType<Page['locator']>): Promise<number> {
  await target.scrollIntoViewIfNeeded();
  return target.evaluate(
    (element) =>
      new Promise<number>((resolve) => {
        const started = performance.now();
        (element as HTMLElement).click();
        requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - started), 0));
      }),
  );
}
