import { execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../testing/wait-for';
import { GIT_HELPER_SOURCE, GitHelper, runGitHere, type GitCall, type GitOutcome, type GitRunner } from './git-runner';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const temp = () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-git-runner-'));
  dirs.push(dir);
  return dir;
};

const helperProcess = new GitHelper('process');
const helperThread = new GitHelper('thread');
afterAll(() => Promise.all([helperProcess.close(), helperThread.close()]));

/** A call in `cwd` with only PATH and HOME of this process, and a repository there when `gitDir` is given. */
const call = (cwd: string, args: readonly string[], more: Partial<GitCall> = {}): GitCall => ({
  args,
  cwd,
  env: { PATH: process.env.PATH, HOME: cwd, GIT_CONFIG_NOSYSTEM: '1', GIT_DIR: join(cwd, '.git') },
  ...more,
});

const exited = (outcome: GitOutcome) => {
  if (outcome.kind !== 'exited') throw new Error(`expected git to have exited, got ${JSON.stringify(outcome)}`);
  return outcome;
};

describe.each<[string, GitRunner]>([
  ['from this thread', runGitHere],
  ['from a helper process', helperProcess.run],
  ['from a helper thread', helperThread.run],
])('running git %s', { timeout: 30_000 }, (_, run) => {
  it("answers git's exit code, stdout and stderr", async () => {
    const dir = temp();
    const version = exited(await run(call(dir, ['--version'])));
    expect(version.code).toBe(0);
    expect(version.stdout.toString('utf8')).toMatch(/^git version /);
    const refused = exited(await run(call(dir, ['rev-parse', '--verify', 'no-such-ref'])));
    expect(refused.code).toBe(128);
    expect(refused.stdout.length).toBe(0);
    expect(refused.stderr.toString('utf8')).toMatch(/not a git repository/);
  });

  it('gives git its input on stdin, as text or bytes', async () => {
    const dir = temp();
    const asText = exited(await run(call(dir, ['hash-object', '--stdin'], { input: 'hello\n' })));
    const asBytes = exited(await run(call(dir, ['hash-object', '--stdin'], { input: Buffer.from('hello\n') })));
    expect(asText.stdout.toString('utf8').trim()).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
    expect(asBytes.stdout.toString('utf8').trim()).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
    const empty = exited(await run(call(dir, ['hash-object', '--stdin'])));
    expect(empty.stdout.toString('utf8').trim()).toBe('e69de29bb2d1d6434b8b29ae775ad8c2e48c5391');
  });

  it('answers a large output whole, byte for byte', async () => {
    const dir = temp();
    execFileSync('git', ['init', '-q', dir]);
    const content = Buffer.alloc(6 * 1024 * 1024);
    for (let index = 0; index < content.length; index += 1) content[index] = (index * 31 + (index >> 12)) & 0xff;
    writeFileSync(join(dir, 'big.bin'), content);
    const oid = exited(await run(call(dir, ['hash-object', '-w', 'big.bin'])))
      .stdout.toString('utf8')
      .trim();
    const blob = exited(await run(call(dir, ['cat-file', 'blob', oid])));
    expect(blob.code).toBe(0);
    expect(blob.stdout.equals(content)).toBe(true);
  });

  it('answers many calls at once, each with its own outcome', async () => {
    const dir = temp();
    const inputs = Array.from({ length: 24 }, (_, index) => `input ${index}\n`);
    const outcomes = await Promise.all(inputs.map((input) => run(call(dir, ['hash-object', '--stdin'], { input }))));
    const expected = inputs.map((input) =>
      execFileSync('git', ['hash-object', '--stdin'], { input }).toString('utf8').trim(),
    );
    expect(outcomes.map((outcome) => exited(outcome).stdout.toString('utf8').trim())).toEqual(expected);
  });

  it('says git could not be run where there is no git', async () => {
    const dir = temp();
    const outcome = await run({ args: ['--version'], cwd: dir, env: { PATH: dir } });
    expect(outcome).toEqual({ kind: 'not-run', message: expect.stringMatching(/ENOENT/) as unknown });
  });

  it('throws what spawn throws for an argument it refuses', async () => {
    await expect(run(call(temp(), ['log', 'a\u0000b']))).rejects.toThrow(TypeError);
  });
});

describe.each<['process' | 'thread']>([['process'], ['thread']])('a git helper %s', { timeout: 60_000 }, (kind) => {
  it('answers a call it was running when it stopped as unanswered, and starts a new helper for the next', async () => {
    const dir = temp();
    const crashing = new GitHelper(
      kind,
      `${GIT_HELPER_SOURCE}\nport.on('message', ({ call }) => { if (call.args[0] === 'crash-now') process.exit(3); });`,
    );
    try {
      const lost = await crashing.run(call(dir, ['crash-now']));
      expect(lost).toEqual({
        kind: 'unanswered',
        message: expect.stringMatching(/stopped before git answered/) as unknown,
      });
      const next = exited(await crashing.run(call(dir, ['--version'])));
      expect(next.code).toBe(0);
    } finally {
      await crashing.close();
    }
  });

  it('runs again a call a helper never started, and runs git from this thread when no helper comes up', async () => {
    const dir = temp();
    const neverUp = new GitHelper(kind, 'process.exit(1)');
    try {
      const outcomes = await Promise.all([
        neverUp.run(call(dir, ['hash-object', '--stdin'], { input: 'one\n' })),
        neverUp.run(call(dir, ['hash-object', '--stdin'], { input: 'two\n' })),
      ]);
      expect(outcomes.map((outcome) => exited(outcome).stdout.toString('utf8').trim())).toEqual(
        ['one\n', 'two\n'].map((input) => execFileSync('git', ['hash-object', '--stdin'], { input }).toString().trim()),
      );
    } finally {
      await neverUp.close();
    }
  });

  it('closes once the calls under way are answered', async () => {
    const closing = new GitHelper(kind);
    const under = closing.run(call(temp(), ['--version']));
    await closing.close();
    expect(exited(await under).code).toBe(0);
    // Closed, it still runs a later call, with a new helper.
    expect(exited(await closing.run(call(temp(), ['--version']))).code).toBe(0);
    await closing.close();
  });

  it('keeps the process alive while a call is under way or it is closing, and not once it is answered', async () => {
    // Nothing else holds this process's event loop: it ends only when the helper lets it, never before the answer.
    const script = `
      import { GitHelper } from ${JSON.stringify(join(import.meta.dirname, 'git-runner.ts'))};
      const helper = new GitHelper(${JSON.stringify(kind)});
      helper
        .run({ args: ['--version'], cwd: process.cwd(), env: { PATH: process.env.PATH } })
        .then(async (outcome) => {
          console.log('answered', outcome.code);
          await helper.close();
          console.log('closed');
        });
    `;
    const output = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', script],
        { timeout: 60_000 },
        (error, stdout) => (error === null ? resolve(stdout) : reject(error)),
      ),
    );
    expect(output.trim().split('\n')).toEqual(['answered 0', 'closed']);
  });
});

describe('a git helper process', { timeout: 60_000 }, () => {
  it('ends when its host is killed', async () => {
    const script = `
      import { GitHelper } from ${JSON.stringify(join(import.meta.dirname, 'git-runner.ts'))};
      await new GitHelper('process').run({ args: ['--version'], cwd: process.cwd(), env: { PATH: process.env.PATH } });
      console.log('ready');
      setInterval(() => undefined, 1000);
    `;
    const host = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      let output = '';
      host.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      await waitFor(() => output.includes('ready'), { timeoutMs: 45_000, message: 'the host to have run git' });
      // Named in process listings; the host's other child is tsx's esbuild.
      const helpers = childrenOf(host.pid ?? 0).filter((pid) =>
        readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('cairn git helper'),
      );
      expect(helpers).toHaveLength(1);
      host.kill('SIGKILL');
      await waitFor(() => helpers.every((pid) => !existsSync(`/proc/${pid}`)), { message: 'the helper to end' });
    } finally {
      host.kill('SIGKILL');
    }
  });
});

/** The processes whose parent is `pid` (Linux: read from /proc). */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        return (
          readFileSync(`/proc/${entry}/stat`, 'utf8')
            .replace(/^.*\) /s, '')
            .split(' ')[1] === String(pid)
        );
      } catch {
        return false;
      }
    })
    .map(Number);
}
