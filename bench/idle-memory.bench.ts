import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'vite';
import { createHost } from '../src-main/host/create-host';
import { silentLogger } from '../src-main/runtime/ports/ports';
import type { BenchResult } from './bench-result';
import { seedHistory } from './seed-history';

const SESSIONS = 4_000;
const EVENTS_PER_SESSION = 20;
const ROUNDS = 3;
const BUNDLE_DIR = resolve('out', 'bench-host');
/** RSS has settled when it moved less than this over the last `SETTLE_SAMPLES` samples. */
const SETTLE_BYTES = 1024 * 1024;
const SETTLE_SAMPLES = 8;
const SAMPLE_MS = 250;

/** The packages the host may load, each measured alone in a fresh Node process: RSS after importing it, less before. */
const PACKAGES = [
  'zod',
  'ws',
  'better-sqlite3',
  'ai',
  '@ai-sdk/openai',
  '@ai-sdk/anthropic',
  '@modelcontextprotocol/sdk/client/index.js',
  '@agentclientprotocol/sdk',
  'gpt-tokenizer',
  'croner',
  'yaml',
  'diff',
  'ignore',
  'tinyglobby',
];

/**
 * Host idle memory: the headless host, bundled the way the desktop build bundles its main process
 * (Vite, dependencies left as packages), started with plain Node on an empty data directory and on
 * one with 4,000 sessions; the resident set once it has settled after start (median of rounds,
 * alternating). Then what each package the host can load costs on its own.
 */
export async function benchIdleMemory(): Promise<BenchResult[]> {
  await build({
    configFile: false,
    logLevel: 'warn',
    build: { ssr: 'src-main/serve.ts', outDir: BUNDLE_DIR, emptyOutDir: true, minify: false, target: 'node20' },
  });
  const empty = mkdtempSync(join(tmpdir(), 'cairn-bench-idle-empty-'));
  const full = mkdtempSync(join(tmpdir(), 'cairn-bench-idle-full-'));
  try {
    await (await createHost({ dataDir: empty, logger: silentLogger })).close();
    await (await createHost({ dataDir: full, logger: silentLogger })).close();
    seedHistory(full, SESSIONS, EVENTS_PER_SESSION);
    // The first start after the seeding indexes the new sessions, as the host that wrote them would have.
    await (await createHost({ dataDir: full, logger: silentLogger })).close();
    const emptyRss: number[] = [];
    const fullRss: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      emptyRss.push(await idleRss(empty));
      fullRss.push(await idleRss(full));
    }
    const emptyMb = median(emptyRss) / 1024 / 1024;
    const fullMb = median(fullRss) / 1024 / 1024;
    const packages: BenchResult[] = [];
    for (const name of PACKAGES) {
      packages.push({
        name: `idle-memory: importing ${name} alone adds`,
        value: (await importCost(name)) / 1024 / 1024,
        unit: 'MB',
      });
    }
    return [
      { name: 'idle-memory: host RSS, empty data directory (median)', value: emptyMb, unit: 'MB' },
      {
        name: `idle-memory: host RSS, ${SESSIONS.toLocaleString('en')} sessions (median)`,
        value: fullMb,
        unit: 'MB',
        ratio: fullMb / emptyMb,
        target: '≤ 150 MB',
      },
      ...packages,
    ];
  } finally {
    rmSync(empty, { recursive: true, force: true });
    rmSync(full, { recursive: true, force: true });
  }
}

/** Starts the bundled host on `dataDir`, waits until it is ready and its RSS has settled, and stops it. */
async function idleRss(dataDir: string): Promise<number> {
  const child = spawn(process.execPath, [join(BUNDLE_DIR, 'serve.js'), `--data-dir=${dataDir}`, '--port=0'], {
    env: { ...process.env, CAIRN_TOKEN: 'bench-idle-memory-token', CAIRN_MODEL_TITLES: 'off' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  try {
    let output = '';
    await new Promise<void>((resolveReady, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Cairn host ready')) resolveReady();
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      void exited.then(() => reject(new Error(`The host exited before it was ready:\n${output}`)));
    });
    const pid = child.pid;
    if (pid === undefined) throw new Error('The host has no process id');
    return await settledRss(pid);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

/** Samples the process's resident set until the last samples lie within SETTLE_BYTES (at most 60 s). */
async function settledRss(pid: number): Promise<number> {
  const samples: number[] = [];
  const deadline = Date.now() + 60_000;
  for (;;) {
    samples.push(readRss(pid));
    const recent = samples.slice(-SETTLE_SAMPLES);
    if (recent.length === SETTLE_SAMPLES && Math.max(...recent) - Math.min(...recent) < SETTLE_BYTES)
      return recent[recent.length - 1] ?? 0;
    if (Date.now() > deadline)
      throw new Error(`RSS of ${pid} did not settle: ${samples.map((s) => Math.round(s / 1048576)).join(', ')} MB`);
    await new Promise((resolveSample) => setTimeout(resolveSample, SAMPLE_MS));
  }
}

function readRss(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (match?.[1] === undefined) throw new Error(`No VmRSS for ${pid}`);
  return Number(match[1]) * 1024;
}

/** RSS after importing `name` in a fresh Node process, less the RSS before (both after a full GC). */
async function importCost(name: string): Promise<number> {
  const script = `globalThis.gc(); const before = process.memoryUsage().rss; await import(${JSON.stringify(name)}); globalThis.gc(); console.log(process.memoryUsage().rss - before);`;
  const child = spawn(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolveExit) => child.once('exit', resolveExit));
  if (code !== 0) throw new Error(`Importing ${name} failed (${code})`);
  return Number(output.trim());
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
