import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServeProcess } from '../../src-main/testing/serve-process';
import { ACK_CATEGORIES, type AckCategory } from './acknowledged';
import { killMarkedGroup, markedProcesses, procAvailable } from './processes';
import { createRng } from './rng';
import { runCycle, startHost, type CycleLimits, type CycleResult } from './soak-cycle';

export interface SoakOptions {
  readonly seed: number;
  readonly kills: number;
  /** The host's data directory; null for a fresh temporary one. */
  readonly dataDir: string | null;
  readonly limits?: Partial<CycleLimits>;
  /** Progress lines (one per kill). */
  readonly log?: (line: string) => void;
}

export type Invariant = 'lost' | 'stuck' | 'unseen' | 'resume' | 'question' | 'goal' | 'settle' | 'restart' | 'host';

export interface Finding {
  /** The kill cycle (1-based) it was found in. */
  readonly kill: number;
  readonly killAfterMs: number;
  readonly invariant: Invariant;
  readonly what: string;
}

export interface SoakReport {
  readonly seed: number;
  readonly kills: number;
  /** Where the host kept its data; null when it was a temporary directory, removed at the end. */
  readonly dataDir: string | null;
  readonly checked: Record<AckCategory, number>;
  readonly lost: Record<AckCategory, number>;
  readonly stuck: number;
  /** Process groups of the soak's commands alive after a kill (each must be ended or recorded). */
  readonly processesSurvived: number;
  readonly unseen: number;
  readonly resumesOk: number;
  readonly resumesFailed: number;
  readonly questionsOk: number;
  readonly questionsFailed: number;
  readonly goalsStalled: number;
  readonly restartRefusals: number;
  readonly wallTimeMs: number;
  readonly findings: readonly Finding[];
}

/** Every shell command of a soak run carries this tag, so its processes can be found and ended. */
export function runTagFor(seed: number): string {
  return `cairn-soak-${process.pid}-${seed}`;
}

/** Ends every process the soak run's shell commands left (after the run, or when it is interrupted). */
export function cleanUpProcesses(seed: number): void {
  const tag = runTagFor(seed);
  for (const marked of markedProcesses(tag)) killMarkedGroup(marked.pgrp, tag);
}

export const DEFAULT_LIMITS: CycleLimits = {
  orphanWaitMs: 2000,
  settleTimeoutMs: 30_000,
  goalStallMs: 3000,
  pollMs: 100,
};

const zeroByCategory = () =>
  Object.fromEntries(ACK_CATEGORIES.map((category) => [category, 0])) as Record<AckCategory, number>;

/** Runs `kills` kill cycles against one data directory and sums up what held and what did not. */
export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  if (!procAvailable())
    throw new Error('The soak reads /proc to find the processes Cairn started; it runs on Linux only.');
  const started = Date.now();
  const log = options.log ?? (() => {});
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const base = mkdtempSync(join(tmpdir(), 'cairn-soak-'));
  const dataDir = options.dataDir ?? join(base, 'data');
  const workspace = join(base, 'workspace');
  mkdirSync(workspace);
  const runTag = runTagFor(options.seed);
  const env = {
    dataDir,
    workspace,
    token: `soak-${options.seed}-${process.pid}`,
    runTag,
    rng: createRng(options.seed),
    limits,
  };

  const report: Tally = {
    seed: options.seed,
    kills: 0,
    dataDir: options.dataDir,
    checked: zeroByCategory(),
    lost: zeroByCategory(),
    stuck: 0,
    processesSurvived: 0,
    unseen: 0,
    resumesOk: 0,
    resumesFailed: 0,
    questionsOk: 0,
    questionsFailed: 0,
    goalsStalled: 0,
    restartRefusals: 0,
    findings: [],
  };
  let host: ServeProcess | null = null;
  try {
    host = (await startHost(env)).host;
    for (let cycle = 1; cycle <= options.kills; cycle += 1) {
      let next: { host: ServeProcess; result: CycleResult };
      try {
        next = await runCycle(env, host, cycle);
      } catch (error) {
        // The host it was given is ended below if still running; runCycle ends the one it restarted.
        throw new Error(
          `Kill ${cycle} could not be checked: ${error instanceof Error ? error.message : String(error)}`,
          { cause: error },
        );
      }
      host = next.host;
      report.kills = cycle;
      const findings = add(report, cycle, next.result);
      log(progressLine(cycle, options.kills, next.result, findings));
    }
  } finally {
    if (host !== null) await stopHost(host);
    cleanUpProcesses(options.seed);
    // The workspace, and the data directory unless the caller named one.
    rmSync(base, { recursive: true, force: true });
  }
  return { ...report, wallTimeMs: Date.now() - started };
}

const STOP_GRACE_MS = 10_000;

/** A clean shutdown (SIGTERM), and SIGKILL if it takes longer than the grace period. */
async function stopHost(host: ServeProcess): Promise<void> {
  if (host.child.exitCode !== null || host.child.signalCode !== null) return;
  host.child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), STOP_GRACE_MS)));
  if ((await Promise.race([host.exited, late])) === 'late') host.child.kill('SIGKILL');
  clearTimeout(timer);
  await host.exited;
}

/** The report while it is being added up. */
type Tally = { -readonly [K in Exclude<keyof SoakReport, 'wallTimeMs' | 'findings'>]: SoakReport[K] } & {
  findings: Finding[];
};

function add(report: Tally, kill: number, result: CycleResult): Finding[] {
  const findings: Finding[] = [];
  const found = (invariant: Invariant, what: string) =>
    findings.push({ kill, killAfterMs: result.killAfterMs, invariant, what });
  for (const category of ACK_CATEGORIES) report.checked[category] += result.checked[category];
  for (const loss of result.lost) {
    report.lost[loss.category] += loss.events;
    found('lost', loss.what);
  }
  for (const what of result.stuck) found('stuck', what);
  for (const what of result.unseen) found('unseen', what);
  for (const failure of result.settle.failures) found(failure.kind, failure.what);
  if (result.restartRefusals > 0)
    found('restart', `the restart was refused ${result.restartRefusals} time(s): the data directory was still locked`);
  if (result.hostEndedEarly !== null) found('host', result.hostEndedEarly);
  report.stuck += result.stuck.length;
  report.processesSurvived += result.processesSurvived;
  report.unseen += result.unseen.length;
  report.resumesOk += result.settle.resumesOk;
  report.resumesFailed += result.settle.resumesFailed;
  report.questionsOk += result.settle.questionsOk;
  report.questionsFailed += result.settle.questionsFailed;
  report.goalsStalled += result.settle.goalsStalled;
  report.restartRefusals += result.restartRefusals;
  report.findings.push(...findings);
  return findings;
}

const sum = (counts: Record<AckCategory, number>) => Object.values(counts).reduce((total, count) => total + count, 0);

function progressLine(cycle: number, kills: number, result: CycleResult, findings: readonly Finding[]): string {
  const lost = result.lost.reduce((total, loss) => total + loss.events, 0);
  const { resumesOk, resumesFailed } = result.settle;
  const problems =
    findings.length === 0 ? '' : `  ✗ ${[...new Set(findings.map((finding) => finding.invariant))].join(', ')}`;
  return `kill ${cycle}/${kills} after ${result.killAfterMs} ms (cycle ${(result.cycleMs / 1000).toFixed(1)} s): ${sum(result.checked)} checked, ${lost} lost, ${result.stuck.length} stuck, ${result.unseen.length} unseen, resumes ${resumesOk}/${resumesOk + resumesFailed}${problems}`;
}

/** True when every invariant held. */
export function passed(report: SoakReport): boolean {
  return report.findings.length === 0;
}

/** The closing figures, then each finding with the seed that reproduces the run. */
export function formatReport(report: SoakReport): string {
  const byCategory = (counts: Record<AckCategory, number>) =>
    ACK_CATEGORIES.filter((category) => counts[category] > 0)
      .map((category) => `${category.replace('_', ' ')} ${counts[category]}`)
      .join(', ');
  const lost = sum(report.lost);
  const lines = [
    `Soak: seed ${report.seed}, ${report.kills} kills, ${report.dataDir === null ? 'a temporary data directory (removed; pass --data-dir to keep one)' : `data directory ${report.dataDir}`}`,
    `  acknowledged events checked  ${sum(report.checked)} (${byCategory(report.checked)})`,
    `  lost                         ${lost}${lost > 0 ? ` (${byCategory(report.lost)})` : ''}`,
    `  stuck runs                   ${report.stuck}`,
    `  unseen processes             ${report.unseen} (of ${report.processesSurvived} process groups alive after a kill)`,
    `  resumes ok / failed          ${report.resumesOk} / ${report.resumesFailed}`,
    `  questions answered after restart ok / failed  ${report.questionsOk} / ${report.questionsFailed}`,
    `  goals stalled                ${report.goalsStalled}`,
    `  restarts refused             ${report.restartRefusals}`,
    `  wall time                    ${(report.wallTimeMs / 1000).toFixed(1)} s`,
  ];
  if (passed(report)) return [...lines, 'Every invariant held.'].join('\n');
  const kinds = [...new Set(report.findings.map((finding) => finding.invariant))];
  lines.push(`FAILED: ${report.findings.length} finding(s) (${kinds.join(', ')}):`);
  for (const finding of report.findings)
    lines.push(`  kill ${finding.kill} (after ${finding.killAfterMs} ms) [${finding.invariant}] ${finding.what}`);
  lines.push(
    `Reproduce the same schedule: npm run soak -- --seed ${report.seed} --kills ${report.kills} (the host's own timing still varies).`,
  );
  return lines.join('\n');
}
