import { readdirSync, readFileSync } from 'node:fs';
import { openHostInspector } from './host-inspector';

/**
 * Where the time goes in the endurance run: CPU seconds of every process that takes part (the host,
 * this benchmark, each Chromium process), how long the host's main thread waited for a core, and what
 * the host spent its CPU on (a CPU profile of a minute after the warm-up, through the inspector the host
 * is started with). Read from /proc, so Linux only.
 */

const CLOCK_TICKS = 100;

/** Cumulative figures at one sample, subtracted between two samples for a window. */
export interface CpuReading {
  /** CPU seconds so far, by process label (see `readProcessCpu`). */
  readonly processes: Readonly<Record<string, number>>;
  /** Seconds the host's main thread (its event loop) spent runnable but waiting for a core (/proc/<pid>/schedstat). */
  readonly hostWaitSeconds: number;
  /** The machine's CPU time so far, busy and in all (/proc/stat, seconds summed over cores). */
  readonly machineBusySeconds: number;
  readonly machineTotalSeconds: number;
}

export function readCpu(hostPid: number): CpuReading {
  const machine = machineSeconds();
  return {
    processes: readProcessCpu(hostPid),
    hostWaitSeconds: runQueueWaitSeconds(hostPid),
    machineBusySeconds: machine.busy,
    machineTotalSeconds: machine.total,
  };
}

/**
 * CPU seconds of the host (its main process and, separately, what it started: agents' shells and
 * tools), this benchmark process with its own children (Playwright's driver), and each Chromium process
 * by type, renderers by process id (one per page: three of the app, the blank one; spares use nothing).
 */
export function readProcessCpu(hostPid: number): Record<string, number> {
  const table = processTable();
  const cpu: Record<string, number> = {
    host: table.get(hostPid)?.cpu ?? 0,
    "host's children (agents' commands, git)":
      (table.get(hostPid)?.endedChildren ?? 0) +
      // A running descendant's own, and its ended children's: git ends under the host's git helper.
      descendants(table, hostPid).reduce(
        (sum, pid) => sum + cpuOf(table, pid) + (table.get(pid)?.endedChildren ?? 0),
        0,
      ),
  };
  const chromium = descendants(table, process.pid).filter((pid) => /chrom/i.test(table.get(pid)?.name ?? ''));
  const own = descendants(table, process.pid).filter((pid) => !chromium.includes(pid) && pid !== hostPid);
  const hostTree = new Set([hostPid, ...descendants(table, hostPid)]);
  cpu['benchmark (this process, the Playwright driver)'] =
    cpuOf(table, process.pid) +
    own.filter((pid) => !hostTree.has(pid)).reduce((sum, pid) => sum + cpuOf(table, pid), 0);
  for (const pid of chromium) {
    const type = chromiumType(pid);
    const label = type === 'renderer' ? `Chromium renderer, pid ${pid}` : `Chromium ${type}`;
    cpu[label] = (cpu[label] ?? 0) + cpuOf(table, pid);
  }
  return cpu;
}

interface ProcessEntry {
  readonly parent: number;
  readonly name: string;
  /** User + system CPU seconds. */
  readonly cpu: number;
  /** User + system CPU seconds of its children that ended (and were waited for). */
  readonly endedChildren: number;
}

function processTable(): Map<number, ProcessEntry> {
  const table = new Map<number, ProcessEntry>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      table.set(Number(entry), {
        parent: Number(fields[1]),
        name,
        cpu: (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS,
        endedChildren: (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS,
      });
    } catch {
      // gone since the listing
    }
  }
  return table;
}

function descendants(table: ReadonlyMap<number, ProcessEntry>, root: number): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, entry] of table) children.set(entry.parent, [...(children.get(entry.parent) ?? []), pid]);
  const found: number[] = [];
  const pending = [...(children.get(root) ?? [])];
  while (pending.length > 0) {
    const pid = pending.pop() as number;
    found.push(pid);
    pending.push(...(children.get(pid) ?? []));
  }
  return found;
}

function cpuOf(table: ReadonlyMap<number, ProcessEntry>, pid: number): number {
  return table.get(pid)?.cpu ?? 0;
}

/** browser, renderer, gpu-process, utility, zygote…: Chromium's `--type=` (none for the browser process). */
function chromiumType(pid: number): string {
  try {
    // Chromium rewrites the command lines of the processes its zygote starts, with spaces between arguments.
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/);
    const type = args.find((arg) => arg.startsWith('--type='))?.slice('--type='.length);
    const sub = args
      .find((arg) => arg.startsWith('--utility-sub-type='))
      ?.split('.')
      .at(-1);
    return type === undefined ? 'browser' : type === 'utility' && sub !== undefined ? `utility (${sub})` : type;
  } catch {
    return 'gone';
  }
}

function runQueueWaitSeconds(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[1]) / 1e9;
  } catch {
    return 0;
  }
}

function machineSeconds(): { busy: number; total: number } {
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((sum, value) => sum + (Number.isFinite(value) ? value : 0), 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  return { busy: (total - idle) / CLOCK_TICKS, total: total / CLOCK_TICKS };
}

/** One sample of the run as the breakdown needs it. */
export interface BreakdownSample {
  readonly minute: number;
  readonly loopP99Ms: number;
  readonly cpu: CpuReading;
}

/** A short Markdown report: the budgets, CPU share per process, the host's lag against its CPU, its top functions. */
export function describeBreakdown(
  samples: readonly BreakdownSample[],
  from: number,
  budgets: readonly string[],
  hostProfile: CpuProfile | null,
): string {
  const after = samples.filter((sample) => sample.minute >= from);
  const first = after[0];
  const last = after.at(-1);
  const lines = ['# Endurance run: where the time goes', '', '## Budgets', '', ...budgets.map((line) => `- ${line}`)];
  if (first === undefined || last === undefined || last === first) return [...lines, '', 'Too few samples.'].join('\n');
  const seconds = (last.minute - first.minute) * 60;
  const machineBusy = last.cpu.machineBusySeconds - first.cpu.machineBusySeconds;
  const cores = (last.cpu.machineTotalSeconds - first.cpu.machineTotalSeconds) / seconds;
  lines.push(
    '',
    `## CPU after warm-up (${(seconds / 60).toFixed(1)} min; the machine: ${cores.toFixed(1)} cores, ${((machineBusy / seconds) * 100).toFixed(0)} % of a core busy in all)`,
    '',
    '| process | % of a core | share of the machine’s busy time |',
    '| --- | ---: | ---: |',
  );
  const labels = Object.keys(last.cpu.processes);
  const rows = labels
    .map((label) => ({ label, used: (last.cpu.processes[label] ?? 0) - (first.cpu.processes[label] ?? 0) }))
    .sort((a, b) => b.used - a.used);
  for (const { label, used } of rows.filter((row) => row.used / seconds >= 0.001))
    lines.push(
      `| ${label} | ${((used / seconds) * 100).toFixed(1)} | ${((used / Math.max(machineBusy, 1e-9)) * 100).toFixed(1)} % |`,
    );
  const others = machineBusy - rows.reduce((sum, row) => sum + row.used, 0);
  lines.push(
    `| everything else on the machine | ${((others / seconds) * 100).toFixed(1)} | ${((others / Math.max(machineBusy, 1e-9)) * 100).toFixed(1)} % |`,
  );
  lines.push('', ...lagAgainstCpu(after), '', ...profileSection(hostProfile));
  return lines.join('\n');
}

/** Per 10 s window: the host's event-loop p99 beside its CPU use and its main thread's wait for a core. */
function lagAgainstCpu(samples: readonly BreakdownSample[]): string[] {
  const windows = samples.slice(1).map((sample, index) => {
    const before = samples[index] as BreakdownSample;
    const seconds = (sample.minute - before.minute) * 60;
    return {
      lag: sample.loopP99Ms,
      cpu: ((sample.cpu.processes.host ?? 0) - (before.cpu.processes.host ?? 0)) / seconds,
      wait: (sample.cpu.hostWaitSeconds - before.cpu.hostWaitSeconds) / seconds,
      machine: (sample.cpu.machineBusySeconds - before.cpu.machineBusySeconds) / seconds,
    };
  });
  const mean = (values: readonly number[]) =>
    values.length === 0 ? Number.NaN : values.reduce((sum, value) => sum + value, 0) / values.length;
  const describe = (name: string, chosen: typeof windows) =>
    `| ${name} | ${chosen.length} | ${mean(chosen.map((w) => w.lag)).toFixed(0)} | ${(mean(chosen.map((w) => w.cpu)) * 100).toFixed(0)} | ${(mean(chosen.map((w) => w.wait)) * 1000).toFixed(0)} | ${(mean(chosen.map((w) => w.machine)) * 100).toFixed(0)} |`;
  return [
    "## The host's event-loop delay against its CPU",
    '',
    'Per 10 s window. "Waited" is how long the host\'s main thread (its event loop) was ready to run but had no core',
    '(/proc/<pid>/schedstat), per second of the window: lag with little CPU used and much waiting is starvation, not work.',
    '',
    '| windows | count | loop p99 ms | host % of a core | host waited ms/s | machine % of a core busy |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    describe('all after warm-up', windows),
    describe(
      'loop p99 > 50 ms',
      windows.filter((w) => w.lag > 50),
    ),
    describe(
      'loop p99 ≤ 50 ms',
      windows.filter((w) => w.lag <= 50),
    ),
  ];
}

interface ProfileNode {
  readonly id: number;
  readonly children?: readonly number[];
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
}

/** The host's CPU profile (`--cpu-prof`, written when it exits), summarised to its top functions by self time. */
export function summariseCpuProfile(profile: {
  nodes: readonly ProfileNode[];
  samples?: readonly number[];
  timeDeltas?: readonly number[];
}): { total: number; top: Array<{ name: string; ms: number; share: number }> } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const place = (frame: ProfileNode['callFrame']) =>
    `${frame.functionName === '' ? '(anonymous)' : frame.functionName} ${frame.url.replace(/^.*\/(out|node_modules)\//, '$1/')}:${frame.lineNumber + 1}`;
  /** A native function (no script) is named with the nearest caller in the app's own code: `spawn ← …`. */
  const callerOf = (id: number): string => {
    for (let at = parents.get(id); at !== undefined; at = parents.get(at)) {
      const frame = byId.get(at)?.callFrame;
      if (frame?.url.includes('/out/main/') === true) return ` ← ${place(frame)}`;
    }
    return '';
  };
  const self = new Map<string, number>();
  let total = 0;
  (profile.samples ?? []).forEach((id, index) => {
    const frame = byId.get(id)?.callFrame;
    const us = Math.max(0, profile.timeDeltas?.[index] ?? 0);
    if (frame === undefined) return;
    const name =
      frame.url !== ''
        ? place(frame)
        : frame.functionName.startsWith('(')
          ? frame.functionName
          : `${frame.functionName}${callerOf(id)}`;
    self.set(name, (self.get(name) ?? 0) + us);
    total += us;
  });
  const top = [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 20)
    .map(([name, us]) => ({ name, ms: us / 1000, share: us / Math.max(total, 1) }));
  return { total: total / 1000, top };
}

function profileSection(profile: CpuProfile | null): string[] {
  if (profile === null)
    return ["## The host's top functions", '', 'No profile was taken (the inspector did not answer).'];
  const summary = summariseCpuProfile(profile);
  return [
    `## The host's top functions by self time (a CPU profile of ${(summary.total / 1000).toFixed(0)} s after the warm-up; "(idle)" is waiting for I/O or timers)`,
    '',
    '| function | s | share |',
    '| --- | ---: | ---: |',
    ...summary.top.map(
      (entry) => `| \`${entry.name}\` | ${(entry.ms / 1000).toFixed(2)} | ${(entry.share * 100).toFixed(1)} % |`,
    ),
  ];
}

export type CpuProfile = Parameters<typeof summariseCpuProfile>[0];

/**
 * A CPU profile of the host for `ms`, starting after `delayMs`, taken through its inspector (the address
 * it printed, see INSPECTOR_OPTION in host-inspector.ts); null when it cannot be reached. Sampled every millisecond.
 */
export async function profileHost(output: () => string, delayMs: number, ms: number): Promise<CpuProfile | null> {
  await new Promise((resolveWait) => setTimeout(resolveWait, delayMs));
  const inspector = await openHostInspector(output);
  if (inspector === null) return null;
  try {
    await inspector.send('Profiler.enable');
    await inspector.send('Profiler.setSamplingInterval', { interval: 1000 });
    await inspector.send('Profiler.start');
    await new Promise((resolveWait) => setTimeout(resolveWait, ms));
    const { profile } = await inspector.send('Profiler.stop');
    return profile as CpuProfile;
  } catch {
    return null;
  } finally {
    inspector.close();
  }
}
