import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright';
import { CairnHost, freePort } from '../e2e/cairn-host';
import { connectProtocolClient, type ProtocolClient } from '../src-main/testing/protocol-client';
import { waitFor } from '../src-main/testing/wait-for';
import type { BenchResult } from './bench-result';
import { benchPage, launchChromium, percentile } from './browser';

const CHILDREN = 8;
const CHUNKS = 600;
const INTERVAL_MS = 5; // 200 deltas per second, in the measured session and in each child
/** Long enough that every child is still streaming when the parent's measured stream ends. */
const CHILD_CHUNKS = 9000;
const ROUNDS = 3;

/**
 * Subagents: the parent's transcript is open in Chromium while 8 child agents stream at once, each
 * at 200 deltas per second. The parent streams too; the time from each of its deltas leaving the host
 * to its text being in the DOM is compared with a single session streaming alone, measured in the
 * same run and the same page, in alternating rounds (the target: the parent's p95 within 1.5× of the
 * single session's).
 */
export async function benchSubagents(): Promise<BenchResult[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cairn-bench-subagents-'));
  const host = new CairnHost(dataDir, 'bench-subagents-token', await freePort());
  await host.start();
  const browser = await launchChromium();
  const watcher = await connectProtocolClient(`ws://127.0.0.1:${host.port}/`, { token: host.token });
  try {
    const page = await benchPage(browser);
    await host.open(page);

    const single = (await host.call('session.create', { title: 'Alone' })).session.sessionId;
    const parent = (await host.call('session.create', { title: 'Parent of eight' })).session.sessionId;
    // Rounds alternate between the two, so load from elsewhere on the machine falls on both alike.
    const alone: number[] = [];
    const loaded: number[] = [];
    let childDeltas = 0;
    let childChunks = 0;
    let loadedSeconds = 0;
    for (let round = 1; round <= ROUNDS; round += 1) {
      // Each stream has its own chunk count, so its chunks are told apart from earlier ones in the transcript.
      alone.push(...(await measureStream(page, watcher, host, single, CHUNKS + 2 * round)));
      const underLoad = await withStreamingChildren(host, watcher, parent, round, () =>
        measureStream(page, watcher, host, parent, CHUNKS + 2 * round + 1),
      );
      loaded.push(...underLoad.latencies);
      childDeltas += underLoad.childDeltas;
      childChunks += underLoad.childChunks;
      loadedSeconds += underLoad.seconds;
    }

    const p95 = (values: number[]) => percentile(values, 95);
    return [
      { name: 'subagents: single session host → DOM p50', value: percentile(alone, 50), unit: 'ms' },
      { name: 'subagents: single session host → DOM p95', value: p95(alone), unit: 'ms' },
      {
        name: `subagents: parent with ${CHILDREN} streaming children, host → DOM p50`,
        value: percentile(loaded, 50),
        unit: 'ms',
      },
      {
        name: `subagents: parent with ${CHILDREN} streaming children, host → DOM p95`,
        value: p95(loaded),
        unit: 'ms',
        ratio: p95(loaded) / Math.max(1, p95(alone)),
        target: 'ratio ≤ 1.5',
      },
      {
        name: 'subagents: children’s chunks streamed during the parent’s stream',
        value: childChunks / loadedSeconds,
        unit: 'chunks/s',
      },
      {
        name: 'subagents: children’s delta events (coalesced) pushed meanwhile',
        value: childDeltas / loadedSeconds,
        unit: 'events/s',
      },
    ];
  } finally {
    await watcher.close();
    await browser.close();
    await host.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Starts CHILDREN children of `parent` streaming, runs `measure` while all of them stream (it is an
 * error if one stops before the measurement ends), then stops them and waits until they have.
 */
async function withStreamingChildren(
  host: CairnHost,
  watcher: ProtocolClient,
  parent: string,
  round: number,
  measure: () => Promise<number[]>,
): Promise<{ latencies: number[]; childDeltas: number; childChunks: number; seconds: number }> {
  const turnId = `spawn-${round}`;
  await host.call('turn.start', {
    sessionId: parent,
    turnId,
    text: `/spawn-many ${CHILDREN} worker ${JSON.stringify(`/stream ${CHILD_CHUNKS} ${INTERVAL_MS}`)}`,
  });
  const ofRound = async () =>
    (await host.call('agent.tree', { sessionId: parent })).tree.children.filter(
      (child) => child.parentTurnId === turnId,
    );
  const streaming = async () => {
    const children = await ofRound();
    return children.length === CHILDREN && children.every((child) => child.status === 'running') ? children : null;
  };
  const children = await waitFor(streaming, { timeoutMs: 30_000, message: `${CHILDREN} children streaming` });
  const childIds = new Set(children.map((child) => child.childSessionId));
  let childDeltas = 0;
  let childChunks = 0;
  const countChildDeltas = (data: unknown) => {
    const { event } = JSON.parse(String(data)) as { event?: { kind: string; sessionId?: string; text?: string } };
    if (event?.kind !== 'transcript.delta' || !childIds.has(event.sessionId ?? '')) return;
    childDeltas += 1;
    childChunks += (event.text ?? '').split(`/${CHILD_CHUNKS}`).length - 1;
  };
  watcher.socket.on('message', countChildDeltas);
  const startedAt = performance.now();
  let latencies: number[];
  try {
    latencies = await measure();
  } finally {
    watcher.socket.off('message', countChildDeltas);
  }
  const seconds = (performance.now() - startedAt) / 1000;
  if ((await streaming()) === null)
    throw new Error('A child stopped streaming before the parent’s stream ended: that round was not under load.');
  await host.call('agent.stop', { rootSessionId: parent });
  await waitFor(async () => ((await ofRound()).every((child) => child.status === 'cancelled') ? true : null), {
    timeoutMs: 30_000,
    message: 'the children to stop',
  });
  return { latencies, childDeltas, childChunks, seconds };
}

/**
 * Opens `sessionId` in the page, streams CHUNKS deltas into it, and returns each delta's time from
 * the watcher receiving it (leaving the host) to a MutationObserver first seeing its text in the
 * transcript. Both read the same wall clock. The chunk count in the text ("chunk 7/603") keeps this
 * stream's chunks apart from the children's and from earlier streams'.
 */
async function measureStream(
  page: Page,
  watcher: ProtocolClient,
  host: CairnHost,
  sessionId: string,
  chunks: number,
): Promise<number[]> {
  await page.locator(`[data-testid="session-row"][data-session-id="${sessionId}"]`).click();
  await page.getByTestId('transcript').waitFor();
  const pattern = `chunk (\\d+)/${chunks}(?!\\d)`;
  await page.evaluate((source) => {
    const seen = new Map<number, number>();
    (window as unknown as { __seen: Map<number, number> }).__seen = seen;
    (window as unknown as { __observer?: MutationObserver }).__observer?.disconnect();
    const scan = () => {
      const now = performance.timeOrigin + performance.now();
      const text = document.querySelector('[data-testid="transcript"]')?.textContent ?? '';
      for (const match of text.matchAll(new RegExp(source, 'g'))) {
        const index = Number(match[1]);
        if (!seen.has(index)) seen.set(index, now);
      }
    };
    const observer = new MutationObserver(scan);
    (window as unknown as { __observer?: MutationObserver }).__observer = observer;
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  }, pattern);

  const leftHost = new Map<number, number>();
  const onMessage = (data: unknown) => {
    const now = performance.timeOrigin + performance.now();
    const { event } = JSON.parse(String(data)) as {
      event?: { kind: string; sessionId?: string; text?: string; item?: { sessionId: string; text: string } };
    };
    // An item's first text arrives with the item itself, the rest as deltas.
    const text =
      event?.kind === 'transcript.delta' && event.sessionId === sessionId
        ? event.text
        : event?.kind === 'transcript.appended' && event.item?.sessionId === sessionId
          ? event.item.text
          : '';
    for (const match of (text ?? '').matchAll(new RegExp(pattern, 'g'))) {
      const index = Number(match[1]);
      if (!leftHost.has(index)) leftHost.set(index, now);
    }
  };
  watcher.socket.on('message', onMessage);
  try {
    await host.call('turn.start', { sessionId, turnId: `stream-${chunks}`, text: `/stream ${chunks} ${INTERVAL_MS}` });
    await page.waitForFunction(
      (count) => ((window as unknown as { __seen: Map<number, number> }).__seen?.size ?? 0) >= count,
      chunks,
      { timeout: 120_000 },
    );
  } finally {
    watcher.socket.off('message', onMessage);
  }
  const seen = new Map<number, number>(
    await page.evaluate(() => [...(window as unknown as { __seen: Map<number, number> }).__seen]),
  );
  const latencies = [...leftHost].flatMap(([index, sent]) => {
    const shown = seen.get(index);
    return shown === undefined ? [] : [Math.max(0, shown - sent)];
  });
  if (latencies.length < chunks * 0.9)
    throw new Error(`Only ${latencies.length} of ${chunks} deltas of the /stream ${chunks} were matched host → DOM.`);
  return latencies;
}
