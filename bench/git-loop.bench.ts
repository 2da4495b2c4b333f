import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';
import { GitHelper, runGitHere } from '../src-main/runtime/checkpoints/git-runner';
import { ShadowRepo } from '../src-main/runtime/checkpoints/shadow-git';
import type { BenchResult } from './bench-result';

/** Checkpoints per runner (each: a snapshot of the workspace and the listing of what changed, 7 git calls). */
const CHECKPOINTS = Number(process.env.CAIRN_BENCH_GIT_CHECKPOINTS ?? 60);
/** The checkpoints of each runner are taken in this many stretches, the runners alternating. */
const STRETCHES = 6;
const FILES = 200;
/** About the host's heap under the endurance run. */
const BALLAST_OBJECTS = 500_000;
/** What a checkpoint of the floor waits instead of running git. */
const FLOOR_CHECKPOINT_MS = 100;

/**
 * The event-loop delay a checkpoint's git calls cost the process that starts them (issue 46), with
 * git started from the main thread (`runGitHere`, how the host ran it before), from a worker thread
 * (`GitHelper('thread')`) and from a small helper process (`GitHelper('process')`, how the host runs it
 * now), against a floor with no git at all, in one run, the variants' stretches alternating. As in the busy host: about 150 MB of heap that the
 * process keeps touching (a process start from Linux forks the whole process), and both cores kept
 * busy by two spinning processes, so a new process waits for a core. A checkpoint is one write to a
 * 200-file workspace, its snapshot (`update-index --refresh`, `diff-files`, `ls-files`, `update-index
 * --add`, `write-tree`) and the listing against the one before (two `diff-tree`).
 */
export async function benchGitLoop(): Promise<BenchResult[]> {
  const temp = mkdtempSync(join(tmpdir(), 'cairn-bench-git-loop-'));
  const ballast = heapBallast();
  const toucher = setInterval(() => touch(ballast), 5);
  const spinners = [spinner(), spinner()];
  const thread = new GitHelper('thread');
  const helper = new GitHelper('process');
  try {
    const variants = [
      { name: 'no git (the floor: load, heap and timers alone)', runner: null },
      { name: 'git from the main thread', runner: runGitHere },
      { name: 'git from a worker thread', runner: thread.run },
      { name: 'git from a helper process', runner: helper.run },
    ].map(({ name, runner }, index) => {
      const workspace = workspaceIn(join(temp, `workspace-${index}`));
      const repo =
        runner === null ? null : new ShadowRepo(join(temp, `${index}.git`), workspace, undefined, [], runner);
      return { name, workspace, repo, previous: null as string | null, delay: createHistogram(), milliseconds: 0 };
    });
    // Warm: each repository created and its index filled, off the clock.
    for (const variant of variants) if (variant.repo !== null) variant.previous = (await variant.repo.snapshot()).tree;
    let written = 0;
    for (let stretch = 0; stretch < STRETCHES; stretch += 1) {
      const order = stretch % 2 === 0 ? variants : [...variants].reverse();
      for (const variant of order) {
        const started = performance.now();
        const delay = loopDelay();
        for (let checkpoint = 0; checkpoint < CHECKPOINTS / STRETCHES; checkpoint += 1) {
          written += 1;
          writeFileSync(join(variant.workspace, `f${written % FILES}.txt`), `written ${written}\n`);
          if (variant.repo === null) {
            await new Promise((resolve) => setTimeout(resolve, FLOOR_CHECKPOINT_MS));
            continue;
          }
          const { tree } = await variant.repo.snapshot();
          await variant.repo.numstat(variant.previous, tree);
          variant.previous = tree;
        }
        variant.delay.add(delay.stop());
        variant.milliseconds += performance.now() - started;
      }
    }
    const ms = (nanoseconds: number) => nanoseconds / 1e6;
    const before = variants[1]!;
    const figures = (variant: (typeof variants)[number]): BenchResult[] => {
      const ratio = (value: number, baseline: number) =>
        variant === before || variant.repo === null ? {} : { ratio: value / baseline };
      return [
        {
          name: `loop delay p99, ${variant.name}`,
          value: ms(variant.delay.percentile(99)),
          unit: 'ms',
          ...ratio(variant.delay.percentile(99), before.delay.percentile(99)),
        },
        {
          name: `loop delay max, ${variant.name}`,
          value: ms(variant.delay.max),
          unit: 'ms',
          ...ratio(variant.delay.max, before.delay.max),
        },
        {
          name: `loop delay mean, ${variant.name}`,
          value: ms(variant.delay.mean),
          unit: 'ms',
          ...ratio(variant.delay.mean, before.delay.mean),
        },
        ...(variant.repo === null
          ? []
          : [
              {
                name: `${CHECKPOINTS} checkpoints, ${variant.name}`,
                value: variant.milliseconds,
                unit: 'ms',
                ...ratio(variant.milliseconds, before.milliseconds),
              },
            ]),
      ];
    };
    return [
      { name: 'heap of this process while measured', value: process.memoryUsage().heapUsed / 1024 / 1024, unit: 'MB' },
      ...variants.flatMap(figures),
    ];
  } finally {
    clearInterval(toucher);
    for (const child of spinners) child.kill('SIGKILL');
    await thread.close();
    await helper.close();
    rmSync(temp, { recursive: true, force: true });
  }
}

/**
 * The event loop's delay, sampled as `monitorEventLoopDelay` does (the time between the runs of a
 * 1 ms timer, so 1 ms is no delay), into a histogram that adds up (a monitor disabled and enabled
 * again between stretches would count the pause between them as one long delay).
 */
function loopDelay(): { stop: () => RecordableHistogram } {
  const histogram = createHistogram();
  const timer = setInterval(() => histogram.recordDelta(), 1);
  return {
    stop: () => {
      clearInterval(timer);
      return histogram;
    },
  };
}

interface Ballast {
  readonly id: number;
  text: string;
  readonly list: number[];
}

/** About 150 MB of small objects on the heap. */
function heapBallast(): Ballast[] {
  return Array.from({ length: BALLAST_OBJECTS }, (_, id) => ({
    id,
    text: `object ${id} of the ballast`,
    list: [id, id],
  }));
}

/** Writes to a few thousand objects spread over the heap, as a busy host does between its awaits. */
function touch(ballast: Ballast[]): void {
  for (let write = 0; write < 2000; write += 1) {
    const object = ballast[Math.floor(Math.random() * ballast.length)];
    if (object !== undefined) object.list[0] = write;
  }
}

/** A process that keeps one core busy until killed. */
function spinner(): ChildProcess {
  return spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
}

function workspaceIn(workspace: string): string {
  mkdirSync(workspace);
  for (let file = 0; file < FILES; file += 1) writeFileSync(join(workspace, `f${file}.txt`), `file ${file}\n`);
  return workspace;
}
