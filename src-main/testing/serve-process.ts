import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeTestShellConfig } from './codex-test-shells';
import { UNREACHABLE_REGISTRY } from './offline-registry';
import { HEADLESS_SOURCES, isBuildStale, modificationTimes, newestModification } from '../../scripts/start.mjs';

const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Vitest options for a describe whose tests start real host processes: a start from source loads the
 * app through tsx (about 1.5 s of CPU), which on a busy two-core machine is ten seconds of wall time, so
 * the budget fits two or three starts rather than the default 20 s.
 */
export const SERVE_PROCESS_TESTS = { timeout: 60_000 } as const;

export interface ServeProcess {
  readonly child: ChildProcess;
  readonly url: string;
  readonly port: number;
  readonly wsUrl: string;
  output(): string;
  /** Resolves with the exit code (or signal name) once the process has exited. */
  readonly exited: Promise<number | string>;
}

export interface ServeOptions {
  readonly dataDir: string;
  /** Passed as CAIRN_TOKEN; null starts the host with no token given, so it uses the one it keeps. */
  readonly token: string | null;
  readonly port?: number;
  readonly env?: Record<string, string>;
  /** More command-line arguments (e.g. --salvage). */
  readonly args?: readonly string[];
  /** Run as this user id (root tests use it to meet permissions that apply to people). */
  readonly uid?: number;
  /**
   * `source` runs src-main/serve.ts through tsx; `built` runs the build's out/main/serve.js (`npm run
   * build`), which starts in about half the time: the e2e suite uses it. By default (`auto`) the build
   * when it is newer than every source it is made from (as in `npm test`, which builds first), else
   * the source, so a test never runs yesterday's code.
   */
  readonly entry?: 'source' | 'built' | 'auto';
}

/** The built headless host (electron-vite builds it beside the desktop main). */
export const BUILT_SERVE = join(PROJECT_ROOT, 'out', 'main', 'serve.js');

let buildFresh: boolean | null = null;

/** Whether out/ holds a build of today's sources (looked up once per test file). */
export function builtServeIsFresh(): boolean {
  buildFresh ??= !isBuildStale(
    modificationTimes(PROJECT_ROOT, ['out/main/serve.js']),
    newestModification(PROJECT_ROOT, HEADLESS_SOURCES),
  );
  return buildFresh;
}

function spawnServe(options: ServeOptions): ChildProcess {
  // Codex's shells wait a second at most on a pyenv lock a stopped command left (codex-test-shells.ts);
  // a host run as another user makes its own CODEX_HOME.
  if (options.uid === undefined) writeTestShellConfig(options.dataDir);
  // The token goes through the environment: on the command line every local user could read it.
  const env: Record<string, string | undefined> = {
    ...process.env,
    CAIRN_TOKEN: options.token ?? undefined,
    CAIRN_MODEL_TITLES: 'off',
    CAIRN_SANDBOX: 'off',
    // Tests reach loopback only: the ACP registry's published address is never fetched (nothing listens here).
    CAIRN_ACP_REGISTRY_URL: UNREACHABLE_REGISTRY,
    ...options.env,
  };
  if (options.token === null) delete env.CAIRN_TOKEN;
  const built = options.entry === 'built' || ((options.entry ?? 'auto') === 'auto' && builtServeIsFresh());
  const entry = built ? [BUILT_SERVE] : ['--import', 'tsx', 'src-main/serve.ts'];
  return spawn(
    process.execPath,
    [...entry, `--data-dir=${options.dataDir}`, `--port=${options.port ?? 0}`, ...(options.args ?? [])],
    {
      cwd: PROJECT_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.uid }),
    },
  );
}

/** Runs serve expecting it to refuse to start; resolves with its exit code and everything it printed. */
export async function runServeToExit(options: ServeOptions): Promise<{ code: number | string; output: string }> {
  const child = spawnServe(options);
  let output = '';
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    // It started after all: stop it, and the caller's assertions on the output will say so.
    if (output.includes('Cairn host ready')) child.kill('SIGKILL');
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const code = await new Promise<number | string>((resolveExit) =>
    child.once('exit', (exitCode, signal) => resolveExit(exitCode ?? signal ?? 'unknown')),
  );
  return { code, output };
}

/** Starts `src-main/serve.ts` as a child process (the real headless host) and waits for its URL. */
export async function startServeProcess(options: ServeOptions): Promise<ServeProcess> {
  const child = spawnServe(options);
  let output = '';
  const exited = new Promise<number | string>((resolveExit) =>
    child.once('exit', (code, signal) => resolveExit(code ?? signal ?? 'unknown')),
  );
  const url = await new Promise<string>((resolveUrl, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Open (http:\/\/127\.0\.0\.1:\d+\/#token=\S+)/.exec(output);
      if (match?.[1] !== undefined) resolveUrl(match[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => reject(new Error(`serve exited (${code}) before it was ready:\n${output}`)));
  });
  const port = Number(new URL(url).port);
  return { child, url, port, wsUrl: `ws://127.0.0.1:${port}/`, output: () => output, exited };
}
