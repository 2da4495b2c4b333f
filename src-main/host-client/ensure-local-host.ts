import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOCAL_SOCKET_NAME } from '../../src-shared/protocol';
import { connectLocalHost, LocalHostUnavailable, type LocalHostClient } from './local-host-client';

/** Where a host started by `cairn acp` writes what it says (its logs), in its data directory. */
export const STARTED_HOST_LOG = 'host.log';

export interface EnsureHostOptions {
  readonly dataDir: string;
  /** The built headless host (`out/main/serve.js`) to start when none runs. */
  readonly serveEntry: string;
  /** How long a started host may take to open its socket. */
  readonly startTimeoutMs?: number;
  /** Told what happens, for the log (stderr): never stdout. */
  readonly log: (line: string) => void;
  /** The started host's environment: the one `cairn acp` got, as `npm start` would pass on. */
  readonly env: NodeJS.ProcessEnv;
}

/**
 * The host that owns `dataDir`, however it was started (desktop app, `npm start`, another `cairn
 * acp`): connected through its local socket. When none answers, a headless host is started for the
 * directory — detached, so it outlives this process and serves the next editor too — and waited for.
 * Two started at once are settled by the data directory's lock: one serves, the other steps aside.
 */
export async function ensureLocalHost(options: EnsureHostOptions): Promise<LocalHostClient> {
  const socketPath = join(options.dataDir, LOCAL_SOCKET_NAME);
  const first = await tryConnect(socketPath);
  if (first !== null) return first;
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const logPath = join(options.dataDir, STARTED_HOST_LOG);
  options.log(`No Cairn host runs for ${options.dataDir}; starting one (its log: ${logPath})`);
  const pid = await startDetachedHost(options, logPath);
  options.log(`Started the Cairn host (process ${pid})`);
  const deadline = Date.now() + (options.startTimeoutMs ?? 60_000);
  let delayMs = 50;
  for (;;) {
    const client = await tryConnect(socketPath);
    if (client !== null) return client;
    // A host that stopped at once says why in its log; one that stepped aside for a host started at
    // the same instant leaves the socket to that one, which the next try finds.
    if (!isAlive(pid) && (await tryConnect(socketPath)) === null)
      throw new Error(`The Cairn host could not start: ${lastLines(logPath)}`);
    if (Date.now() > deadline) throw new Error(`The Cairn host did not open ${socketPath} in time; see ${logPath}`);
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    delayMs = Math.min(delayMs * 2, 500);
  }
}

/**
 * Starts the host through a short-lived middle process that exits at once, so the host is no
 * descendant of this one: an editor that ends its agent's whole process tree leaves it serving.
 * Resolves with the host's pid.
 */
async function startDetachedHost(options: EnsureHostOptions, logPath: string): Promise<number> {
  const middle = spawn(
    process.execPath,
    ['-e', DETACH_SCRIPT, options.serveEntry, `--data-dir=${options.dataDir}`, logPath],
    { detached: true, stdio: ['ignore', 'pipe', 'inherit'], env: options.env },
  );
  let said = '';
  middle.stdout.setEncoding('utf8');
  middle.stdout.on('data', (chunk: string) => (said += chunk));
  const code = await new Promise<number | null>((resolve, reject) => {
    middle.once('error', reject);
    middle.once('exit', (exitCode) => resolve(exitCode));
  });
  const pid = Number(said.trim());
  if (code !== 0 || !Number.isInteger(pid) || pid <= 0) throw new Error('Could not start the Cairn host process');
  return pid;
}

/** The middle process: starts the host in a session of its own, its output to the log, says its pid, exits. */
const DETACH_SCRIPT = `
const { spawn } = require('node:child_process');
const { openSync } = require('node:fs');
const [entry, dataDirArg, logPath] = process.argv.slice(1);
const log = openSync(logPath, 'a', 0o600);
const host = spawn(process.execPath, [entry, dataDirArg], { detached: true, stdio: ['ignore', log, log] });
host.unref();
process.stdout.write(String(host.pid));
`;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function tryConnect(socketPath: string): Promise<LocalHostClient | null> {
  try {
    return await connectLocalHost(socketPath);
  } catch (error) {
    if (error instanceof LocalHostUnavailable && error.reason === 'absent') return null;
    throw error;
  }
}

function lastLines(path: string): string {
  try {
    return readFileSync(path, 'utf8').trim().split('\n').slice(-5).join('\n');
  } catch {
    return '(no log)';
  }
}
