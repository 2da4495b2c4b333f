import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, CDPSession, Page } from 'playwright';
import { CairnHost, freePort } from '../e2e/cairn-host';
import { DATABASE_FILE } from '../src-main/storage/database';
import type { BenchResult } from './bench-result';
import { describeBreakdown, profileHost, readCpu, type CpuProfile, type CpuReading } from './endurance-breakdown';
import { benchPage, launchChromium, percentile } from './browser';
import { heapGrowthSections, snapshotHeaps, type HeapSnapshotFile, type HeapSubject } from './endurance-heap-snapshots';
import { INSPECTOR_OPTION } from './host-inspector';
import { plotSeries, type PlotSeries } from './endurance-plot';
import { startWorkload } from './endurance-workload';

const SAMPLE_MS = 10_000;
const KEYS_PER_SAMPLE = 10;
const RESULTS_DIR = resolve('out', 'bench');
/** What each page shows (the workload's sessions), in the order they are opened. */
const PAGE_NAMES = ['busiest session', 'Codex-like session', 'goal session'];

/** One reading, every 10 s. */
interface Sample {
  readonly minute: number;
  readonly hostRssMb: number;
  readonly hostHeapMb: number;
  /** The old generation as the host's latest full collection left it (null before the first). */
  readonly hostHeapKeptMb: number | null;
  readonly loopP99Ms: number;
  readonly loopMaxMs: number;
  readonly databaseMb: number;
  readonly walMb: number;
  readonly offloadMb: number;
  readonly pageHeapsMb: readonly number[];
  readonly keypressMs: readonly number[];
  readonly blankKeypressMs: readonly number[];
  readonly hostCpuSeconds: number;
  readonly browserCpuSeconds: number;
  /** CPU seconds by process, the host's wait for a core, the machine's busy time (endurance-breakdown.ts). */
  readonly cpu: CpuReading;
  readonly turnsDone: number;
}

/**
 * `npm run bench endurance [-- --minutes N] [--heap-snapshots]` (default 10): twelve sessions working at once
 * (bench/endurance-workload.ts) against the real headless host, three pages of the app open — on
 * the busiest session and two others — and a blank page typed into alongside. Every 10 s: the host's
 * RSS, heap and event-loop delay (`host.vitals`), the database, WAL and offload folder sizes, each
 * page's JS heap after a GC, and keypress → next frame in the busiest page and in the blank one.
 * Budgets compare the median of the last 2 minutes with the 2 minutes after a 2-minute warm-up.
 * Writes the samples (JSON), a plot (SVG) and where the time goes (Markdown: CPU per process, the
 * host's event-loop delay against its CPU and its wait for a core, and the host's top functions in a
 * CPU profile of the minute after the warm-up) to out/bench/. With `--heap-snapshots`, two snapshots of
 * the host's heap and of each page's as well — half-way through the warm-up and after the last sample,
 * outside the windows the budgets compare — and in the breakdown the constructors that grew most in each
 * between them (the first snapshot raises the host's RSS for good, so RSS growth in such a run is
 * measured from a higher base).
 */
export async function benchEndurance(): Promise<BenchResult[]> {
  const minutes = requestedMinutes();
  const window = Math.min(2, minutes / 5);
  const base = join(RESULTS_DIR, `endurance-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  const heapSnapshots = process.argv.includes('--heap-snapshots');
  const dataDir = mkdtempSync(join(tmpdir(), 'cairn-bench-endurance-'));
  const workspace = join(dataDir, '..', `${dataDir.split('/').pop() ?? 'endurance'}-workspace`);
  mkdirSync(workspace, { recursive: true });
  gitInit(workspace);
  const host = new CairnHost(dataDir, 'bench-endurance-token', await freePort(), {
    CAIRN_MODEL_TITLES: 'off',
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} ${INSPECTOR_OPTION}`,
  });
  host.keepEvents = false;
  await host.start();
  const browser = await launchChromium();
  try {
    const workload = await startWorkload(host, workspace);
    const pages = await openPages(browser, host, [workload.busiest, ...workload.others]);
    const blank = await openBlankPage(browser);
    const busiest = pages[0];
    if (busiest === undefined) throw new Error('No page on the busiest session');
    const composer = busiest.page.getByRole('textbox', { name: 'Message' });
    await composer.waitFor();
    await installKeyProbe(busiest.page);
    await installKeyProbe(blank);

    const samples: Sample[] = [];
    const started = Date.now();
    const profileMs = Math.max(5_000, Math.min(60_000, (minutes - window) * 60_000 - 10_000));
    const hostProfile = profileHost(() => host.output(), window * 60_000, profileMs);
    const subjects: HeapSubject[] = [
      { kind: 'host', output: () => host.output() },
      ...pages.map(({ cdp }, index) => ({
        kind: 'page' as const,
        label: `page ${index + 1} (${PAGE_NAMES[index] ?? 'page'})`,
        cdp,
      })),
    ];
    // Taking a snapshot raises the host's RSS by some 90 MB for good (what the inspector allocated for it):
    // the first is taken half-way through the warm-up, so both windows the budgets compare come after it.
    const warmUpSnapshots = heapSnapshots
      ? snapshotHeaps(subjects, { base, tag: 'warm-up', started, afterMs: window * 30_000 })
      : null;
    const hostPid = host.pid;
    if (hostPid === undefined) throw new Error('The host has no process id');
    await host.call('host.vitals', {});
    while (Date.now() - started < minutes * 60_000) {
      const due = started + (samples.length + 1) * SAMPLE_MS;
      await new Promise((resolveWait) => setTimeout(resolveWait, Math.max(0, due - Date.now())));
      const failed = workload.failure();
      if (failed !== null) throw failed;
      const keypressMs = await unlessStarved(() => typeAndMeasure(busiest.page, composer));
      const blankKeypressMs = await unlessStarved(() => typeAndMeasure(blank, blank.locator('textarea')));
      const vitals = await host.call('host.vitals', {});
      const pageHeapsMb: number[] = [];
      for (const { cdp } of pages) pageHeapsMb.push(await heapAfterGc(cdp));
      const cpu = readCpu(hostPid);
      samples.push({
        minute: (Date.now() - started) / 60_000,
        hostRssMb: readRss(hostPid) / MB,
        hostHeapMb: vitals.heapUsedBytes / MB,
        hostHeapKeptMb: vitals.heapAfterFullGcBytes === null ? null : vitals.heapAfterFullGcBytes / MB,
        loopP99Ms: vitals.eventLoopDelayMs.p99,
        loopMaxMs: vitals.eventLoopDelayMs.max,
        databaseMb: fileSize(join(dataDir, DATABASE_FILE)) / MB,
        walMb: fileSize(join(dataDir, `${DATABASE_FILE}-wal`)) / MB,
        offloadMb: folderSize(join(dataDir, 'context-offload')) / MB,
        pageHeapsMb,
        keypressMs,
        blankKeypressMs,
        hostCpuSeconds: cpu.processes.host ?? 0,
        browserCpuSeconds: Object.entries(cpu.processes)
          .filter(([label]) => label.startsWith('Chromium'))
          .reduce((sum, [, seconds]) => sum + seconds, 0),
        cpu,
        turnsDone: workload.turnsDone(),
      });
      const last = samples[samples.length - 1];
      if (last !== undefined && process.env.CAIRN_BENCH_QUIET === undefined)
        console.log(
          `  ${last.minute.toFixed(1)} min: host ${last.hostRssMb.toFixed(0)} MB (heap ${last.hostHeapMb.toFixed(0)}), loop p99 ${last.loopP99Ms.toFixed(0)} ms, WAL ${last.walMb.toFixed(1)} MB, pages ${last.pageHeapsMb.map((mb) => mb.toFixed(0)).join('/')} MB, key p95 ${percentile(last.keypressMs, 95).toFixed(0)} ms (blank ${percentile(last.blankKeypressMs, 95).toFixed(0)}), ${last.turnsDone} turns`,
        );
    }
    const snapshots =
      warmUpSnapshots === null
        ? null
        : {
            first: await warmUpSnapshots,
            last: await snapshotHeaps(subjects, { base, tag: 'end', started, afterMs: 0 }),
          };
    await workload.stop();
    return summarise(samples, { minutes, window }, await hostProfile, base, snapshots);
  } catch (error) {
    console.error(`The host printed:\n${host.output().slice(-4000)}`);
    throw error;
  } finally {
    await browser.close();
    await host.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  }
}

const MB = 1024 * 1024;

function requestedMinutes(): number {
  const flag = process.argv.indexOf('--minutes');
  const value = Number(flag === -1 ? (process.env.CAIRN_BENCH_MINUTES ?? 10) : process.argv[flag + 1]);
  if (!Number.isFinite(value) || value < 1) throw new Error(`--minutes wants a number of minutes of at least 1`);
  return value;
}

/** The budgets, each against the windows the issue names; the samples and the plot go to out/bench/. */
function summarise(
  samples: readonly Sample[],
  run: { minutes: number; window: number },
  hostProfile: CpuProfile | null,
  base: string,
  snapshots: { first: readonly HeapSnapshotFile[]; last: readonly HeapSnapshotFile[] } | null,
): BenchResult[] {
  const baseline = samples.filter((s) => s.minute >= run.window && s.minute < 2 * run.window);
  const end = samples.filter((s) => s.minute >= run.minutes - run.window);
  const afterWarmUp = samples.filter((s) => s.minute >= run.window);
  const median = (values: readonly number[]) => percentile(values, 50);
  const growth = (pick: (s: Sample) => number) =>
    median(end.map(pick)) / Math.max(Number.EPSILON, median(baseline.map(pick))) - 1;
  const pageCount = samples[0]?.pageHeapsMb.length ?? 0;
  const pageGrowth = Array.from({ length: pageCount }, (_, page) => growth((s) => s.pageHeapsMb[page] ?? 0));
  const keypress = percentile(
    afterWarmUp.flatMap((s) => s.keypressMs),
    95,
  );
  const blankKeypress = percentile(
    afterWarmUp.flatMap((s) => s.blankKeypressMs),
    95,
  );
  const worstLoopP99 = Math.max(0, ...afterWarmUp.map((s) => s.loopP99Ms));
  const walMax = Math.max(0, ...samples.map((s) => s.walMb));
  const last = samples[samples.length - 1];
  const first = afterWarmUp[0];
  const cpuShare = (pick: (s: Sample) => number) =>
    last === undefined || first === undefined || last === first
      ? 0
      : (pick(last) - pick(first)) / ((last.minute - first.minute) * 60);
  const met = (ok: boolean) => (ok ? 'met' : 'not met');
  const results: BenchResult[] = [
    {
      name: `endurance: host RSS growth, end vs after warm-up (${run.minutes} min)`,
      value: growth((s) => s.hostRssMb) * 100,
      unit: `% (${median(end.map((s) => s.hostRssMb)).toFixed(0)} MB${snapshots === null ? '' : '; both windows after a heap snapshot raised it'})`,
      target: `≤ 10 %: ${met(growth((s) => s.hostRssMb) <= 0.1)}`,
    },
    {
      // As the pages' heaps are read: after a full collection, so the figure is what is kept rather than
      // where the sawtooth of heapUsed (collected every few seconds) happened to be at each sample.
      name: 'endurance: host heap growth (kept after a full GC), end vs after warm-up',
      value: growth((s) => s.hostHeapKeptMb ?? 0) * 100,
      unit: `% (${median(end.map((s) => s.hostHeapKeptMb ?? 0)).toFixed(1)} MB; heapUsed between collections ${(growth((s) => s.hostHeapMb) * 100).toFixed(1)} %, ${median(end.map((s) => s.hostHeapMb)).toFixed(0)} MB)`,
      target: `≤ 10 %: ${met(growth((s) => s.hostHeapKeptMb ?? 0) <= 0.1)}`,
    },
    {
      name: 'endurance: host event-loop delay p99, worst 10 s window after warm-up',
      value: worstLoopP99,
      unit: `ms (median window ${median(afterWarmUp.map((s) => s.loopP99Ms)).toFixed(0)} ms)`,
      target: `≤ 50 ms: ${met(worstLoopP99 <= 50)}`,
    },
    { name: 'endurance: WAL, largest seen', value: walMax, unit: 'MB', target: `≤ 64 MB: ${met(walMax <= 64)}` },
    ...pageGrowth.map((value, page) => ({
      name: `endurance: page ${page + 1} JS heap growth (${PAGE_NAMES[page] ?? 'page'})`,
      value: value * 100,
      unit: `% (${median(end.map((s) => s.pageHeapsMb[page] ?? 0)).toFixed(0)} MB)`,
      target: `≤ 10 %: ${met(value <= 0.1)}`,
    })),
    {
      name: 'endurance: keypress → next frame p95, busiest page',
      value: keypress,
      unit: `ms (blank page ${blankKeypress.toFixed(1)} ms)`,
      target: `≤ blank + 4 ms: ${met(keypress <= blankKeypress + 4)}`,
    },
    {
      name: 'endurance: database and offload at the end',
      value: last?.databaseMb ?? 0,
      unit: `MB (offload ${(last?.offloadMb ?? 0).toFixed(1)} MB, ${last?.turnsDone ?? 0} turns)`,
    },
    {
      name: 'endurance: where the time goes, CPU after warm-up',
      value: cpuShare((s) => s.hostCpuSeconds) * 100,
      unit: `% of a core in the host, ${(cpuShare((s) => s.browserCpuSeconds) * 100).toFixed(0)} % in Chromium`,
    },
  ];
  const budgets = results
    .filter((result) => result.target !== undefined)
    .map((result) => `${result.name}: ${result.value.toFixed(1)} ${result.unit} — ${result.target ?? ''}`);
  const breakdown = [
    describeBreakdown(samples, run.window, budgets, hostProfile),
    ...(snapshots === null ? [] : heapGrowthSections(snapshots.first, snapshots.last)),
  ].join('\n');
  const files = writeFigures(samples, run, breakdown, base);
  return [
    ...results,
    {
      name: `endurance: samples, plot and breakdown in ${files}${snapshots === null ? '' : ', heap snapshots beside them'}`,
      value: samples.length,
      unit: 'samples',
    },
  ];
}

function writeFigures(
  samples: readonly Sample[],
  run: { minutes: number; window: number },
  breakdown: string,
  base: string,
): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(`${base}.json`, JSON.stringify({ run, samples }, null, 2));
  const series: PlotSeries[] = [
    { name: 'Host RSS', unit: 'MB', values: samples.map((s) => s.hostRssMb) },
    { name: 'Host heap (heapUsed, between collections)', unit: 'MB', values: samples.map((s) => s.hostHeapMb) },
    { name: 'Host heap kept after a full GC', unit: 'MB', values: samples.map((s) => s.hostHeapKeptMb) },
    { name: 'Host event-loop delay p99', unit: 'ms', values: samples.map((s) => s.loopP99Ms), limit: 50 },
    { name: 'WAL', unit: 'MB', values: samples.map((s) => s.walMb), limit: 64 },
    { name: 'Database', unit: 'MB', values: samples.map((s) => s.databaseMb) },
    { name: 'Offload folder', unit: 'MB', values: samples.map((s) => s.offloadMb) },
    ...[0, 1, 2].map((page) => ({
      name: `Page ${page + 1} JS heap`,
      unit: 'MB',
      values: samples.map((s) => s.pageHeapsMb[page] ?? null),
    })),
    {
      name: 'Keypress → next frame p95, busiest page',
      unit: 'ms',
      values: samples.map((s) => (s.keypressMs.length === 0 ? null : percentile(s.keypressMs, 95))),
    },
    {
      name: 'Keypress → next frame p95, blank page',
      unit: 'ms',
      values: samples.map((s) => (s.blankKeypressMs.length === 0 ? null : percentile(s.blankKeypressMs, 95))),
    },
  ];
  writeFileSync(
    `${base}.svg`,
    plotSeries(
      series,
      samples.map((s) => s.minute),
      { baseline: [run.window, 2 * run.window], end: [run.minutes - run.window, run.minutes] },
    ),
  );
  writeFileSync(`${base}-breakdown.md`, `${breakdown}\n`);
  return `${base}.{json,svg} and ${base}-breakdown.md`;
}

interface OpenPage {
  readonly page: Page;
  readonly cdp: CDPSession;
}

async function openPages(browser: Browser, host: CairnHost, sessionIds: readonly string[]): Promise<OpenPage[]> {
  const pages: OpenPage[] = [];
  for (const sessionId of sessionIds) {
    const page = await benchPage(browser);
    await host.open(page);
    await page.locator(`[data-testid="session-row"][data-session-id="${sessionId}"]`).click();
    pages.push({ page, cdp: await page.context().newCDPSession(page) });
  }
  return pages;
}

async function openBlankPage(browser: Browser): Promise<Page> {
  const page = await benchPage(browser);
  await page.setContent('<textarea aria-label="Blank"></textarea>');
  return page;
}

/** Used JS heap after a full collection, so the series shows what is kept rather than when the GC ran. */
async function heapAfterGc(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  const usage = await cdp.send('Runtime.getHeapUsage');
  return usage.usedSize / MB;
}

/** keydown → the frame after the next paint, for every key typed. */
async function installKeyProbe(page: Page): Promise<void> {
  await page.evaluate(() => {
    const frames: number[] = [];
    (window as unknown as { __frames: number[] }).__frames = frames;
    document.addEventListener(
      'keydown',
      (event) => {
        const started = event.timeStamp;
        requestAnimationFrame(() => setTimeout(() => frames.push(performance.now() - started), 0));
      },
      true,
    );
  });
}

/**
 * A page too starved to take a click within Playwright's limit gives no keypress figures for that
 * sample (said on the console) instead of ending the run; the other series go on.
 */
async function unlessStarved(measure: () => Promise<number[]>): Promise<number[]> {
  try {
    return await measure();
  } catch (error) {
    if (!(error instanceof Error && error.name === 'TimeoutError')) throw error;
    console.log(`  (a page did not respond in time; no keypress figures this sample: ${error.message.split('\n')[0]})`);
    return [];
  }
}

async function typeAndMeasure(page: Page, field: ReturnType<Page['locator']>): Promise<number[]> {
  await field.click();
  await page.evaluate(() => ((window as unknown as { __frames: number[] }).__frames.length = 0));
  for (let key = 0; key < KEYS_PER_SAMPLE; key += 1)
    await page.keyboard.type(String.fromCharCode(97 + (key % 26)), { delay: 25 });
  await page.waitForFunction(
    (keys) => (window as unknown as { __frames: number[] }).__frames.length >= keys,
    KEYS_PER_SAMPLE,
    { timeout: 60_000 },
  );
  const frames = await page.evaluate(() => [...(window as unknown as { __frames: number[] }).__frames]);
  await field.fill('');
  return frames;
}

function readRss(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match?.[1] === undefined ? 0 : Number(match[1]) * 1024;
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

function folderSize(path: string): number {
  let total = 0;
  let entries;
  try {
    entries = readdirSync(path, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const child = join(path, entry.name);
    total += entry.isDirectory() ? folderSize(child) : fileSize(child);
  }
  return total;
}

function gitInit(workspace: string): void {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: workspace, stdio: 'ignore' });
  git('init', '-q');
  git('-c', 'user.email=bench@cairn.local', '-c', 'user.name=Bench', 'commit', '-q', '--allow-empty', '-m', 'start');
}
