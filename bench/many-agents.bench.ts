import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright';
import { CairnHost, freePort } from '../e2e/cairn-host';
import { waitFor } from '../src-main/testing/wait-for';
import type { BenchResult } from './bench-result';
import { benchPage, blankPageKeypressP95, launchChromium, percentile } from './browser';

const CHILDREN = 8;
const CHILD_INTERVAL_MS = 5; // 200 deltas per second in each subagent
/** Codex streams an answer at roughly a token per delta, some 50–70 deltas per second. */
const CODEX_LIKE_SESSIONS = 2;
const CODEX_LIKE_INTERVAL_MS = 15;
/** Long enough that everything still streams when a round's typing ends (it is checked). */
const STREAM_CHUNKS = 20_000;
const KEYS = 80;
const ROUNDS = 2;

interface KeyProbe {
  frames: number[];
  events: number[];
  longTasks: number[];
}

/**
 * Many agents at once: the person types in a session's composer while 8 subagents (of another
 * session) and 2 Codex-like sessions stream, against the same typing with nothing streaming, in
 * alternating rounds of the same run and page. The subagents are the Offline demo's `/spawn-many`
 * children streaming `/stream` at 200 deltas per second each; the "Codex sessions" are Offline demo
 * sessions streaming at Codex's rate of about 65 deltas per second (driving real `codex` here would
 * measure the model, not Cairn). Measured in Chromium: keydown → the frame after the next paint
 * (p95), the Event Timing API's duration of each key event (reported only from 16 ms), and long tasks.
 */
export async function benchManyAgents(): Promise<BenchResult[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cairn-bench-many-agents-'));
  const host = new CairnHost(dataDir, 'bench-many-agents-token', await freePort());
  await host.start();
  const browser = await launchChromium();
  try {
    const page = await benchPage(browser);
    await host.open(page);
    const typing = (await host.call('session.create', { title: 'Where the person types' })).session.sessionId;
    const parent = (await host.call('session.create', { title: 'Parent of eight' })).session.sessionId;
    const codexLike: string[] = [];
    for (let index = 1; index <= CODEX_LIKE_SESSIONS; index += 1)
      codexLike.push((await host.call('session.create', { title: `Codex-like ${index}` })).session.sessionId);
    await page.locator(`[data-testid="session-row"][data-session-id="${typing}"]`).click();
    const composer = page.getByRole('textbox', { name: 'Message' });
    await composer.waitFor();
    await installKeyProbe(page);

    const quiet: KeyProbe[] = [];
    const loaded: KeyProbe[] = [];
    for (let round = 1; round <= ROUNDS; round += 1) {
      quiet.push(await typeKeys(page));
      loaded.push(await whileEverythingStreams(host, parent, codexLike, round, () => typeKeys(page)));
    }

    const merged = (probes: KeyProbe[]) => ({
      frames: probes.flatMap((probe) => probe.frames),
      events: probes.flatMap((probe) => probe.events),
      longTasks: probes.flatMap((probe) => probe.longTasks),
    });
    const floor = await blankPageKeypressP95(browser);
    const alone = merged(quiet);
    const busy = merged(loaded);
    const keys = KEYS * ROUNDS;
    const p95 = (values: number[]) => percentile(values, 95);
    /** Event Timing reports only events of 16 ms or more: the p95 of all keys, the unreported ones counted as under 16. */
    const eventP95 = (events: number[]) =>
      percentile([...events, ...Array<number>(Math.max(0, keys - events.length)).fill(0)], 95);
    const over50 = (tasks: number[]) => tasks.filter((duration) => duration > 50).length;
    const longest = (tasks: number[]) => Math.max(0, ...tasks).toFixed(0);
    return [
      {
        name: "many-agents: a blank page's textarea, keypress → next frame p95 (this machine's floor)",
        value: floor,
        unit: 'ms',
      },
      { name: 'many-agents: nothing streaming, keypress → next frame p95', value: p95(alone.frames), unit: 'ms' },
      {
        name: 'many-agents: streaming, keypress → next frame p95',
        value: p95(busy.frames),
        unit: 'ms',
        ratio: p95(busy.frames) / Math.max(1, p95(alone.frames)),
        target: '≤ 16 ms',
      },
      {
        name: 'many-agents: nothing streaming, key events ≥ 16 ms (Event Timing)',
        value: alone.events.length,
        unit: `of ${keys} (p95 ${eventP95(alone.events)} ms)`,
      },
      {
        name: 'many-agents: streaming, key events ≥ 16 ms (Event Timing)',
        value: busy.events.length,
        unit: `of ${keys} (p95 ${eventP95(busy.events)} ms)`,
        target: 'p95 < 16 ms',
      },
      {
        name: 'many-agents: nothing streaming, long tasks > 50 ms (longest)',
        value: over50(alone.longTasks),
        unit: `tasks (${longest(alone.longTasks)} ms)`,
      },
      {
        name: 'many-agents: streaming, long tasks > 50 ms (longest)',
        value: over50(busy.longTasks),
        unit: `tasks (${longest(busy.longTasks)} ms)`,
        target: '0',
      },
    ];
  } finally {
    await browser.close();
    await host.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Starts the subagents and the Codex-like sessions streaming, runs `measure` while all of them stream
 * (an error if one stopped before it ended), then stops them all and waits until they have.
 */
async function whileEverythingStreams(
  host: CairnHost,
  parent: string,
  codexLike: readonly string[],
  round: number,
  measure: () => Promise<KeyProbe>,
): Promise<KeyProbe> {
  const spawnTurn = `spawn-${round}`;
  const streamTurn = `stream-${round}`;
  await host.call('turn.start', {
    sessionId: parent,
    turnId: spawnTurn,
    text: `/spawn-many ${CHILDREN} worker ${JSON.stringify(`/stream ${STREAM_CHUNKS} ${CHILD_INTERVAL_MS}`)}`,
  });
  for (const sessionId of codexLike)
    await host.call('turn.start', {
      sessionId,
      turnId: streamTurn,
      text: `/stream ${STREAM_CHUNKS} ${CODEX_LIKE_INTERVAL_MS}`,
    });
  const children = async () =>
    (await host.call('agent.tree', { sessionId: parent })).tree.children.filter(
      (child) => child.parentTurnId === spawnTurn,
    );
  const codexLikeRunning = async () => {
    for (const sessionId of codexLike) {
      if ((await host.call('turn.query', { sessionId, turnId: streamTurn })).turn.status !== 'running') return false;
    }
    return true;
  };
  const allStreaming = async () => {
    const spawned = await children();
    return spawned.length === CHILDREN &&
      spawned.every((child) => child.status === 'running') &&
      (await codexLikeRunning())
      ? true
      : null;
  };
  await waitFor(allStreaming, {
    timeoutMs: 60_000,
    message: `${CHILDREN} subagents and ${codexLike.length} Codex-like sessions streaming`,
  });
  const probe = await measure();
  if ((await allStreaming()) === null)
    throw new Error('Something stopped streaming before the typing ended: that round was not under load.');
  await host.call('agent.stop', { rootSessionId: parent });
  for (const sessionId of codexLike) await host.call('turn.stop', { sessionId, turnId: streamTurn });
  await waitFor(async () => ((await children()).every((child) => child.status === 'cancelled') ? true : null), {
    timeoutMs: 60_000,
    message: 'the subagents to stop',
  });
  return probe;
}

/** Types KEYS letters into the focused composer and returns what the page saw of them; the composer is emptied after. */
async function typeKeys(page: Page): Promise<KeyProbe> {
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.click();
  await page.evaluate(() => {
    const probe = (window as unknown as { __keys: KeyProbe }).__keys;
    probe.frames.length = 0;
    probe.events.length = 0;
    probe.longTasks.length = 0;
  });
  for (let key = 0; key < KEYS; key += 1) await page.keyboard.type(String.fromCharCode(97 + (key % 26)), { delay: 25 });
  await page.waitForFunction((keys) => (window as unknown as { __keys: KeyProbe }).__keys.frames.length >= keys, KEYS, {
    timeout: 120_000,
  });
  // Event Timing entries are delivered after the frame; give the observer a frame to catch up.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
  const probe = await page.evaluate(() => {
    const { frames, events, longTasks } = (window as unknown as { __keys: KeyProbe }).__keys;
    return { frames: [...frames], events: [...events], longTasks: [...longTasks] };
  });
  await composer.fill('');
  return probe;
}

/** keydown → the frame after the next paint, Event Timing durations of keydown events, and long tasks. */
async function installKeyProbe(page: Page): Promise<void> {
  await page.evaluate(() => {
    const probe: KeyProbe = { frames: [], events: [], longTasks: [] };
    (window as unknown as { __keys: KeyProbe }).__keys = probe;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) probe.longTasks.push(entry.duration);
    }).observe({ type: 'longtask', buffered: false });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) if (entry.name === 'keydown') probe.events.push(entry.duration);
    }).observe({ type: 'event', durationThreshold: 16, buffered: false } as PerformanceObserverInit);
    document.addEventListener(
      'keydown',
      (event) => {
        const started = event.timeStamp;
        requestAnimationFrame(() => setTimeout(() => probe.frames.push(performance.now() - started), 0));
      },
      true,
    );
  });
}
