import { spawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { LOCK_FILE } from './storage/data-dir-lock';
import { DATABASE_FILE } from './storage/database';
import { corruptIndexPage } from './storage/testing/corrupt-database';
import { tempDataDir } from './testing/host-fixture';
import { connectProtocolClient, HandshakeRefused } from './testing/protocol-client';
import { runServeToExit, SERVE_PROCESS_TESTS, startServeProcess, type ServeProcess } from './testing/serve-process';
import { waitFor } from './testing/wait-for';

/** Starting the headless host: the data directory lock across processes, and clear start-up errors. */

const TOKEN = 'serve-startup-token';
const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const STACK_LINE = /^\s+at .+\(.+:\d+:\d+\)$/m;
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function dataDir(): string {
  const { dir, cleanup } = tempDataDir();
  cleanups.push(cleanup);
  return dir;
}

function track(server: ServeProcess): ServeProcess {
  cleanups.push(async () => {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    await server.exited;
  });
  return server;
}

function processState(pid: number): string | null {
  try {
    return /\) (\S)/.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1] ?? null;
  } catch {
    return null;
  }
}

/** The uid serve runs as where permissions must apply: root ignores them, so tests run it as nobody. */
const asPerson = process.getuid?.() === 0 ? 65534 : undefined;

async function refused(dir: string, extra: { uid?: number; token?: string | null } = {}) {
  const result = await runServeToExit({ dataDir: dir, token: TOKEN, ...extra });
  expect(result.code).toBe(1);
  expect(result.output).not.toMatch(STACK_LINE);
  expect(result.output).not.toContain('Cairn host ready');
  return result.output;
}

describe('the data directory lock between host processes', SERVE_PROCESS_TESTS, () => {
  it.runIf(process.platform === 'linux')(
    'lets a host start 0 ms after the previous one was SIGKILLed, while it is still a zombie',
    async () => {
      const dir = dataDir();
      // A parent that cannot reap its child (it is stopped) keeps the killed host a zombie: the pid stays
      // alive to kill(pid, 0), which is what a pid-file lock asked.
      const parent = spawn(
        process.execPath,
        [
          '-e',
          `const c = require('node:child_process').spawn(process.execPath, ['--import', 'tsx', 'src-main/serve.ts', '--data-dir=${dir}', '--port=0'], { stdio: 'inherit', env: { ...process.env, CAIRN_TOKEN: '${TOKEN}' } });
         console.log('child ' + c.pid);`,
        ],
        { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      cleanups.push(() => {
        parent.kill('SIGKILL');
      });
      let output = '';
      parent.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      parent.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      await waitFor(() => output.includes('Cairn host ready'), {
        message: 'the first host to be ready',
        timeoutMs: 45_000,
      });
      const pid = Number(/child (\d+)/.exec(output)?.[1]);
      parent.kill('SIGSTOP');
      process.kill(pid, 'SIGKILL');
      await waitFor(() => processState(pid) === 'Z', { message: 'the killed host to be a zombie' });

      const second = track(await startServeProcess({ dataDir: dir, token: TOKEN }));
      const client = await connectProtocolClient(second.wsUrl, { token: TOKEN });
      cleanups.push(() => client.close());
      expect(processState(pid)).toBe('Z');
      expect((await client.call('host.info', {})).dataDir).toBe(dir);
    },
  );

  it('lets exactly one of two hosts racing on one empty directory win', async () => {
    const dir = join(dataDir(), 'fresh');
    const outcomes = await Promise.allSettled([0, 1].map(() => startServeProcess({ dataDir: dir, token: TOKEN })));
    for (const outcome of outcomes) if (outcome.status === 'fulfilled') track(outcome.value);
    const won = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const lost = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    // The loser is refused while the winner starts, or, once the winner answers on its local socket,
    // points to it and steps aside (exit 0).
    expect(String(lost[0]?.reason)).toMatch(
      /exited \(1\)[\s\S]*already in use by another Cairn host|exited \(0\)[\s\S]*Cairn is already running for/,
    );
  });
});

describe('start-up errors', SERVE_PROCESS_TESTS, () => {
  it('names the lock path when cairn.lock is a folder', async () => {
    const dir = dataDir();
    mkdirSync(join(dir, LOCK_FILE));
    expect(await refused(dir)).toContain(
      `cairn: ${join(dir, LOCK_FILE)} is a folder, but Cairn keeps its lock file there. Move or delete it`,
    );
  });

  it.runIf(process.platform !== 'win32')('names a read-only data directory and what to do', async () => {
    const dir = dataDir();
    const data = join(dir, 'data');
    mkdirSync(data);
    if (asPerson !== undefined) chownSync(dir, asPerson, asPerson);
    chmodSync(data, 0o555);
    const output = await refused(data, asPerson === undefined ? {} : { uid: asPerson });
    expect(output).toContain(`cairn: Cairn cannot write to its data directory ${data}`);
    expect(output).toContain('Give your user write access to it');
  });

  it.runIf(process.platform !== 'win32')('names a read-only database file and what to do', async () => {
    const dir = dataDir();
    if (asPerson !== undefined) chownSync(dir, asPerson, asPerson);
    const first = track(
      await startServeProcess({ dataDir: dir, token: TOKEN, ...(asPerson === undefined ? {} : { uid: asPerson }) }),
    );
    first.child.kill('SIGTERM');
    await first.exited;
    chmodSync(join(dir, DATABASE_FILE), 0o444);
    const output = await refused(dir, asPerson === undefined ? {} : { uid: asPerson });
    expect(output).toContain(`cairn: Cairn's database ${join(dir, DATABASE_FILE)} is read-only`);
    expect(output).toContain('chmod u+w');
  });
});

describe('a damaged database', SERVE_PROCESS_TESTS, () => {
  async function seeded(dir: string) {
    const server = track(await startServeProcess({ dataDir: dir, token: TOKEN }));
    const client = await connectProtocolClient(server.wsUrl, { token: TOKEN });
    const sessions: string[] = [];
    for (const title of ['Alpha notes', 'Beta plans', 'Gamma ideas']) {
      const { session } = await client.call('session.create', { title });
      await client.call('turn.start', {
        sessionId: session.sessionId,
        turnId: `t-${sessions.length}`,
        text: `hello ${title}`,
      });
      sessions.push(session.sessionId);
    }
    for (const [index, sessionId] of sessions.entries()) {
      await waitFor(
        async () => (await client.call('turn.query', { sessionId, turnId: `t-${index}` })).turn.status === 'completed',
        {
          message: 'each seeded turn to complete',
        },
      );
    }
    await client.close();
    return { server, sessions };
  }

  it('after an unclean shutdown is found by a check and named, and --salvage starts with every session and transcript', async () => {
    const dir = dataDir();
    const { server, sessions } = await seeded(dir);
    server.child.kill('SIGKILL');
    await server.exited;
    corruptIndexPage(join(dir, DATABASE_FILE), 'sessions_by_recency');

    const output = await refused(dir);
    expect(output).toContain(`cairn: Cairn's database ${join(dir, DATABASE_FILE)} is damaged (`);
    expect(output).toContain('start again with --salvage');

    const salvaged = track(await startServeProcess({ dataDir: dir, token: TOKEN, args: ['--salvage'] }));
    expect(salvaged.output()).toContain('Moved a damaged database aside');
    const kept = readdirSync(dir).filter(
      (name) => name.startsWith(`${DATABASE_FILE}.damaged-`) && !name.endsWith('-wal') && !name.endsWith('-shm'),
    );
    expect(kept).toHaveLength(1);
    const client = await connectProtocolClient(salvaged.wsUrl, { token: TOKEN });
    cleanups.push(() => client.close());
    for (const [index, sessionId] of sessions.entries()) {
      const snapshot = await client.call('session.get', { sessionId });
      expect(snapshot.session.title).toBe(['Alpha notes', 'Beta plans', 'Gamma ideas'][index]);
      expect(snapshot.transcript.items.map((item) => item.text)).toContain(`hello ${snapshot.session.title}`);
    }
  });

  it('that is not a database at all is named, with no stack trace', async () => {
    const dir = dataDir();
    const { server } = await seeded(dir);
    server.child.kill('SIGTERM');
    await server.exited;
    corruptIndexPage(join(dir, DATABASE_FILE), null);
    expect(existsSync(join(dir, DATABASE_FILE))).toBe(true);
    const output = await refused(dir);
    expect(output).toContain(`cairn: Cairn's database ${join(dir, DATABASE_FILE)} is damaged (file is not a database)`);
  });
});

describe('the access token', SERVE_PROCESS_TESTS, () => {
  it('is read from --token-file (ahead of CAIRN_TOKEN), and --token on the command line is warned about', async () => {
    const dir = dataDir();
    const file = join(dir, 'token');
    writeFileSync(file, 'from-the-file-0123\n', { mode: 0o600 });
    const server = track(
      await startServeProcess({
        dataDir: join(dir, 'data'),
        token: 'from-the-environment',
        args: [`--token-file=${file}`],
      }),
    );
    expect(server.url).toContain('#token=from-the-file-0123');
    const client = await connectProtocolClient(server.wsUrl, { token: 'from-the-file-0123' });
    await client.close();
    await expect(connectProtocolClient(server.wsUrl, { token: 'from-the-environment' })).rejects.toBeInstanceOf(
      HandshakeRefused,
    );

    const warned = track(
      await startServeProcess({
        dataDir: join(dir, 'other'),
        token: 'unused-env-token',
        args: ['--token=on-the-command-line'],
      }),
    );
    expect(warned.output()).toContain(
      '--token is visible to every user of this machine in the process list; prefer CAIRN_TOKEN or --token-file',
    );
  });

  it(
    'is kept in the data directory (0600) so a restarted host accepts the same token; --new-token replaces it',
    { timeout: 150_000 },
    async () => {
      const dir = dataDir();
      const first = track(await startServeProcess({ dataDir: dir, token: null }));
      const kept = new URL(first.url).hash.replace('#token=', '');
      const file = join(dir, 'host-token');
      expect(readFileSync(file, 'utf8').trim()).toBe(kept);
      if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
      first.child.kill('SIGTERM');
      await first.exited;

      const second = track(await startServeProcess({ dataDir: dir, token: null }));
      expect(second.url).toContain(`#token=${kept}`);
      const client = await connectProtocolClient(second.wsUrl, { token: kept });
      await client.close();
      second.child.kill('SIGTERM');
      await second.exited;

      const rotated = track(await startServeProcess({ dataDir: dir, token: null, args: ['--new-token'] }));
      const fresh = new URL(rotated.url).hash.replace('#token=', '');
      expect(fresh).not.toBe(kept);
      expect(readFileSync(file, 'utf8').trim()).toBe(fresh);
      expect(rotated.output()).toContain('A new access token is in');
      await expect(connectProtocolClient(rotated.wsUrl, { token: kept })).rejects.toBeInstanceOf(HandshakeRefused);
      rotated.child.kill('SIGTERM');
      await rotated.exited;

      // A token given by CAIRN_TOKEN still wins, and leaves the kept one alone.
      const given = track(await startServeProcess({ dataDir: dir, token: 'given-by-the-environment' }));
      expect(given.url).toContain('#token=given-by-the-environment');
      expect(readFileSync(file, 'utf8').trim()).toBe(fresh);
    },
  );

  it('refuses a token file in the data directory that holds no token, saying how to replace it', async () => {
    const dir = dataDir();
    writeFileSync(join(dir, 'host-token'), 'x\n', { mode: 0o600 });
    const output = await refused(dir, { token: null });
    expect(output).toContain('does not hold a token. Start with --new-token to replace it.');
  });
});

describe('the Codex limits', SERVE_PROCESS_TESTS, () => {
  it('refuses a limit that is not one, naming the flag and what was given, before anything starts', async () => {
    const flag = await runServeToExit({ dataDir: dataDir(), token: TOKEN, args: ['--codex-max-warm=0'] });
    expect(flag.code).toBe(2);
    expect(flag.output).toContain(
      '--codex-max-warm (CAIRN_CODEX_MAX_WARM) must be a whole number of at least 1, not "0"',
    );
    const env = await runServeToExit({ dataDir: dataDir(), token: TOKEN, env: { CAIRN_CODEX_IDLE_MINUTES: 'soon' } });
    expect(env.code).toBe(2);
    expect(env.output).toContain('must be a number of minutes above 0, not "soon"');
  });
});
