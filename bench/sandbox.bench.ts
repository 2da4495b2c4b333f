import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { detectSandbox } from '../src-main/runtime/sandbox/sandbox-availability';
import { SandboxService } from '../src-main/runtime/sandbox/sandbox-service';
import type { BenchResult } from './bench-result';
import { percentile } from './browser';

const FILES = 10_000;
const RUNS = 21;

/**
 * The sandbox's cost, sandboxed against not in the same run: `true` (the fixed start-up cost of
 * bwrap: its namespaces and mounts) and `git status` in a committed 10,000-file repository (work that
 * reads many files through the sandbox's mounts). Each is spawned as the shell runner spawns it
 * (`bash -c`, or `bwrap … bash -c`); the two alternate run by run so load hits both alike.
 */
export function benchSandbox(): BenchResult[] {
  const availability = detectSandbox('detect');
  if (!availability.available) throw new Error(`The sandbox bench needs the sandbox: ${availability.reason}`);
  // Under /var/tmp: inside the sandbox /tmp is private, and the repository must be the workspace.
  const base = mkdtempSync('/var/tmp/cairn-bench-sandbox-');
  try {
    const repo = path.join(base, 'repo');
    for (let dir = 0; dir < FILES / 100; dir += 1) {
      mkdirSync(path.join(repo, `dir${dir}`), { recursive: true });
      for (let file = 0; file < 100; file += 1)
        writeFileSync(path.join(repo, `dir${dir}`, `file${file}.txt`), `file ${dir}/${file}\n`);
    }
    const git = (...args: string[]) => execFileSync('git', ['-C', repo, ...args], { stdio: 'ignore' });
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('-c', 'user.name=bench', '-c', 'user.email=bench@example.com', 'commit', '-qm', 'files');
    const sandbox = new SandboxService({ availability, dataDir: path.join(base, 'data') });
    const time = (command: string, sandboxed: boolean): number => {
      const prepared = sandboxed ? sandbox.prepare(repo, { sessionId: 'bench' }) : null;
      const argv = prepared?.wrap(['bash', '-c', command]) ?? ['bash', '-c', command];
      const started = performance.now();
      const result = spawnSync(argv[0]!, argv.slice(1), { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
      const elapsed = performance.now() - started;
      prepared?.dispose();
      if (result.status !== 0)
        throw new Error(`${command} failed (${sandboxed ? 'sandboxed' : 'plain'}): ${result.stderr.toString()}`);
      return elapsed;
    };
    const measure = (command: string) => {
      const plain: number[] = [];
      const boxed: number[] = [];
      time(command, false);
      time(command, true);
      for (let run = 0; run < RUNS; run += 1) {
        plain.push(time(command, false));
        boxed.push(time(command, true));
      }
      return { plain: percentile(plain, 50), boxed: percentile(boxed, 50) };
    };
    const trivial = measure('true');
    const status = measure('git status --porcelain');
    return [
      { name: '`true`, not sandboxed (p50)', value: trivial.plain, unit: 'ms' },
      { name: '`true`, sandboxed (p50)', value: trivial.boxed, unit: 'ms', ratio: trivial.boxed / trivial.plain },
      {
        name: 'fixed start-up cost of the sandbox (sandboxed − not, `true`)',
        value: trivial.boxed - trivial.plain,
        unit: 'ms',
      },
      {
        name: `git status in ${FILES.toLocaleString('en')} files, not sandboxed (p50)`,
        value: status.plain,
        unit: 'ms',
      },
      {
        name: `git status in ${FILES.toLocaleString('en')} files, sandboxed (p50)`,
        value: status.boxed,
        unit: 'ms',
        ratio: status.boxed / status.plain,
        target: 'ratio ≤ 1.2',
      },
    ];
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
