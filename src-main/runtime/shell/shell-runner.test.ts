import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ShellRunRecord } from '../../../src-shared/shell-run-model';
import { openDatabase, type Db } from '../../storage/database';
import { MIGRATIONS } from '../../storage/migrations';
import { createShellRunStore, type ShellRunStore } from '../../storage/shell-run-store';
import { tempDataDir } from '../../testing/host-fixture';
import { waitFor } from '../../testing/wait-for';
import { systemClock } from '../ports/ports';
import { processGone } from './process-group';
import { processStartIdentity } from './process-identity';
import {
  createShellRunner,
  type ShellOutputChunk,
  type ShellRunner,
  type ShellRunnerOptions,
  type ShellRunRequest,
} from './shell-runner';

describe('shell runner', () => {
  let db: Db;
  let store: ShellRunStore;
  let runner: ShellRunner;
  let cleanup: () => void;
  let cwd: string;
  let counter = 0;

  const makeRunner = (options: Partial<ShellRunnerOptions> = {}) =>
    createShellRunner({ store, clock: systemClock, newShellRunId: () => `sh-${++counter}`, ...options });
  const request = (command: string, extra: Partial<ShellRunRequest> = {}): ShellRunRequest => ({
    sessionId: 's1',
    turnId: 't1',
    runId: 'r1',
    toolCallId: 'call-1',
    command,
    cwd,
    timeoutMs: 15_000,
    ...extra,
  });
  /** Live output gathered per stream, for waiting on a line the command prints. */
  const collector = () => {
    const chunks: ShellOutputChunk[] = [];
    return {
      chunks,
      onOutput: (chunk: ShellOutputChunk) => chunks.push(chunk),
      text: (stream: 'stdout' | 'stderr') =>
        chunks
          .filter((chunk) => chunk.stream === stream)
          .map((chunk) => chunk.text)
          .join(''),
    };
  };
  const pidsIn = (text: string) =>
    text
      .split('\n')
      .filter((line) => /^\d+$/.test(line))
      .map(Number);

  beforeEach(() => {
    const temp = tempDataDir();
    cleanup = temp.cleanup;
    cwd = temp.dir;
    db = openDatabase(temp.dir, { migrations: MIGRATIONS });
    db.prepare(
      "INSERT INTO sessions (session_id, title, title_source, connection_id, permission_mode, revision, created_at, updated_at) VALUES ('s1', 'T', 'user', 'c', 'ask', 1, 0, 0)",
    ).run();
    store = createShellRunStore(db);
    runner = makeRunner();
  });
  afterEach(async () => {
    await runner.killAll();
    db.close();
    cleanup();
  });

  it('captures stdout, stderr and the exit code, and records running → exited durably', async () => {
    const output = collector();
    const started: ShellRunRecord[] = [];
    const result = await runner.run(
      request('echo out; echo err >&2; pwd; exit 3', {
        onOutput: output.onOutput,
        onStart: (run) => started.push(run),
      }),
    );
    expect(result).toMatchObject({
      status: 'exited',
      exitCode: 3,
      signal: null,
      stdoutTail: `out\n${cwd}\n`,
      stderrTail: 'err\n',
      stdoutTruncated: false,
      stderrTruncated: false,
      failureMessage: null,
      stoppedLeftovers: false,
    });
    expect(started).toEqual([
      expect.objectContaining({ shellRunId: result.shellRunId, status: 'running', pid: result.pid }),
    ]);
    expect(output.text('stdout')).toBe(`out\n${cwd}\n`);
    expect(output.text('stderr')).toBe('err\n');
    expect(store.get(result.shellRunId)).toMatchObject({
      status: 'exited',
      exitCode: 3,
      pid: result.pid,
      command: 'echo out; echo err >&2; pwd; exit 3',
      cwd,
      toolCallId: 'call-1',
      stdoutTail: `out\n${cwd}\n`,
      stderrTail: 'err\n',
      endedAt: expect.any(Number),
    });
    expect(runner.liveRunIds()).toEqual([]);
  });

  it('records the start identity of the process with its pid, so a restarted host can tell it from a reused pid', async () => {
    const result = await runner.run(
      request('echo $$; sleep 0.2', {
        onStart: (run) => expect(store.processStart(run.shellRunId)).toBe(processStartIdentity(run.pid ?? 0)),
      }),
    );
    expect(store.processStart(result.shellRunId)).toMatch(
      process.platform === 'linux' ? /^linux:[0-9a-f-]+:\d+$/ : /^ps:/,
    );
  });

  it('records running, with the pid and its start identity, in the same tick as the spawn (a crash right after finds the process)', async () => {
    const done = runner.run(request('sleep 30'));
    // No await, no tick: a SIGKILL here must leave a row the restarted host can find the process by.
    const [shellRunId] = runner.liveRunIds();
    const record = store.get(shellRunId ?? '');
    expect(record).toMatchObject({ status: 'running', pid: expect.any(Number) });
    expect(store.processStart(shellRunId ?? '')).toBe(processStartIdentity(record?.pid ?? 0));
    expect(store.processStart(shellRunId ?? '')).not.toBeNull();
    runner.kill(shellRunId ?? '');
    expect(await done).toMatchObject({ status: 'killed', pid: record?.pid });
  });

  it("gives commands none of Cairn's variables and no secret-looking ones, except those passed through", async () => {
    const added = {
      CAIRN_TOKEN: 'host-token-value-123',
      CAIRN_DATA_DIR: '/data',
      OPENAI_API_KEY: 'sk-person',
      GITHUB_TOKEN: 'ghp',
      DB_PASSWORD: 'pw',
      VISIBLE_SETTING: 'yes',
    };
    Object.assign(process.env, added);
    try {
      runner = makeRunner({ passThrough: ['GITHUB_TOKEN'] });
      const result = await runner.run(request('env'));
      expect(result.stdoutTail).toContain('VISIBLE_SETTING=yes');
      expect(result.stdoutTail).toContain('GITHUB_TOKEN=ghp');
      expect(result.stdoutTail).not.toMatch(/^(CAIRN_\w*|OPENAI_API_KEY|DB_PASSWORD)=/m);
      expect(result.stdoutTail).not.toContain('host-token-value-123');
    } finally {
      for (const name of Object.keys(added)) delete process.env[name];
    }
  });

  describe('processes that leave the group (setsid, a double fork)', () => {
    const escapees: number[] = [];
    afterEach(() => {
      for (const pid of escapees.splice(0)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone, as it should be
        }
      }
    });
    const escapeeIn = async (output: ReturnType<typeof collector>) => {
      const pid = await waitFor(() => pidsIn(output.text('stdout'))[0], {
        message: 'the escaped process to say its pid',
      });
      escapees.push(pid);
      return pid;
    };

    it('are stopped when the command ends leaving them behind, holding its output open or not', async () => {
      const output = collector();
      // Holds stdout: before, the run lasted until its timeout and the process outlived it.
      const result = await runner.run(
        request(
          "setsid sh -c 'echo $$ > held.pid; exec sleep 300' & until [ -s held.pid ]; do sleep 0.05; done; cat held.pid",
          { onOutput: output.onOutput },
        ),
      );
      const holder = await escapeeIn(output);
      expect(result).toMatchObject({ status: 'exited', exitCode: 0, stoppedLeftovers: true });
      await waitFor(() => processGone(holder), { message: 'the setsid process to be stopped' });

      const second = collector();
      // A daemon's double fork, output closed: the grandchild is in a session of its own, parented by init.
      const daemon = await runner.run(
        request("setsid sh -c 'sleep 300 >/dev/null 2>&1 & echo $! > daemon.pid'; cat daemon.pid", {
          onOutput: second.onOutput,
        }),
      );
      const grandchild = await escapeeIn(second);
      expect(daemon).toMatchObject({ status: 'exited', stoppedLeftovers: true });
      await waitFor(() => processGone(grandchild), { message: 'the double-forked process to be stopped' });
    });

    it('are stopped by Stop and by a timeout', async () => {
      const output = collector();
      const running = runner.run(
        request("setsid sh -c 'echo $$; exec sleep 300' & wait", { onOutput: output.onOutput }),
      );
      const stopped = await escapeeIn(output);
      runner.kill(runner.liveRunIds()[0] ?? '');
      expect(await running).toMatchObject({ status: 'killed' });
      await waitFor(() => processGone(stopped), { message: 'Stop to end the setsid process' });

      const late = collector();
      const timedOut = runner.run(
        request("setsid sh -c 'echo $$; exec sleep 300' >&1 & wait", { onOutput: late.onOutput, timeoutMs: 1500 }),
      );
      const slow = await escapeeIn(late);
      expect(await timedOut).toMatchObject({ status: 'timed_out' });
      await waitFor(() => processGone(slow), { message: 'the timeout to end the setsid process' });
    });
  });

  it('reports a shell ended by a signal', async () => {
    const result = await runner.run(request('kill -KILL $$'));
    expect(result).toMatchObject({ status: 'exited', exitCode: null, signal: 'SIGKILL' });
  });

  it('times out: records timed_out and kills the whole group, grandchildren included', async () => {
    const output = collector();
    const result = await runner.run(request('sleep 30 & echo $!; wait', { timeoutMs: 300, onOutput: output.onOutput }));
    expect(result).toMatchObject({
      status: 'timed_out',
      signal: 'SIGTERM',
      failureMessage: 'Timed out after 0.3 s; its process group was stopped.',
    });
    const [grandchild] = pidsIn(result.stdoutTail);
    expect(grandchild).toBeTypeOf('number');
    await waitFor(() => processGone(result.pid ?? 0) && processGone(grandchild ?? 0), {
      message: 'the shell and its grandchild to be gone',
    });
    expect(store.get(result.shellRunId)).toMatchObject({ status: 'timed_out' });
  });

  it('keeps only the last bytes of each stream and flags the truncation', async () => {
    runner = makeRunner({ tailBytes: 1024 });
    const result = await runner.run(
      request("head -c 100000 /dev/zero | tr '\\0' a; printf END; head -c 5000 /dev/zero | tr '\\0' b >&2"),
    );
    expect(result.stdoutTruncated).toBe(true);
    expect(result.stdoutTail).toBe(`${'a'.repeat(1021)}END`);
    expect(result.stderrTruncated).toBe(true);
    expect(result.stderrTail).toBe('b'.repeat(1024));
    expect(store.get(result.shellRunId)).toMatchObject({
      stdoutTruncated: true,
      stderrTruncated: true,
      stdoutTail: `${'a'.repeat(1021)}END`,
    });
  });

  it('kill() stops the whole process group and records killed', async () => {
    const output = collector();
    const running = runner.run(request('sleep 30 & echo $!; wait', { onOutput: output.onOutput }));
    const [grandchild] = await waitFor(
      () => (pidsIn(output.text('stdout')).length > 0 ? pidsIn(output.text('stdout')) : null),
      { message: 'the grandchild pid' },
    );
    const [shellRunId] = runner.liveRunIds();
    expect(store.get(shellRunId ?? '')).toMatchObject({ status: 'running' });
    expect(runner.kill(shellRunId ?? '')).toBe(true);
    const result = await running;
    expect(result).toMatchObject({
      shellRunId,
      status: 'killed',
      failureMessage: 'Stopped before it finished; its process group was killed.',
    });
    await waitFor(() => processGone(result.pid ?? 0) && processGone(grandchild ?? 0), {
      message: 'the shell and its grandchild to be gone',
    });
    expect(store.get(result.shellRunId)).toMatchObject({ status: 'killed' });
    expect(runner.kill(result.shellRunId)).toBe(false);
  });

  it('escalates to SIGKILL when the group ignores SIGTERM', async () => {
    runner = makeRunner({ killGraceMs: 200 });
    const output = collector();
    const running = runner.run(request("trap '' TERM; sleep 30 & echo $!; wait", { onOutput: output.onOutput }));
    const [grandchild] = await waitFor(() =>
      pidsIn(output.text('stdout')).length > 0 ? pidsIn(output.text('stdout')) : null,
    );
    runner.kill(runner.liveRunIds()[0] ?? '');
    const result = await running;
    expect(result).toMatchObject({ status: 'killed', signal: 'SIGKILL' });
    await waitFor(() => processGone(grandchild ?? 0), { message: 'the grandchild to be gone' });
  });

  it('stops on the abort signal, as a turn stop does', async () => {
    const controller = new AbortController();
    const running = runner.run(request('sleep 30', { signal: controller.signal, onStart: () => controller.abort() }));
    expect(await running).toMatchObject({ status: 'killed' });
    const aborted = new AbortController();
    aborted.abort();
    expect(await runner.run(request('sleep 30', { signal: aborted.signal }))).toMatchObject({ status: 'killed' });
  });

  it('stops what the shell left running in its group when it exits', async () => {
    const result = await runner.run(request('sleep 30 >/dev/null 2>&1 & echo $!'));
    expect(result).toMatchObject({ status: 'exited', exitCode: 0, stoppedLeftovers: true });
    const [leftover] = pidsIn(result.stdoutTail);
    await waitFor(() => processGone(leftover ?? 0), { message: 'the leftover process to be gone' });
  });

  it('hands out live output only once it is saved, so a crash keeps everything a client saw', async () => {
    const shown = { stdout: '', stderr: '' };
    const unsavedWhenShown: string[] = [];
    const running = runner.run(
      request('for i in 1 2 3 4 5 6; do echo "line $i"; echo "err $i" >&2; sleep 0.05; done; sleep 30', {
        onOutput: (chunk) => {
          shown[chunk.stream] += chunk.text;
          const saved = store.get(chunk.shellRunId);
          const tail = chunk.stream === 'stdout' ? saved?.stdoutTail : saved?.stderrTail;
          if (tail !== shown[chunk.stream])
            unsavedWhenShown.push(
              `${chunk.stream}: shown ${JSON.stringify(shown[chunk.stream])}, saved ${JSON.stringify(tail)}`,
            );
        },
      }),
    );
    await waitFor(() => shown.stdout.includes('line 6') && shown.stderr.includes('err 6'), {
      message: 'all six lines shown',
    });
    expect(unsavedWhenShown).toEqual([]);
    const shellRunId = runner.liveRunIds()[0] ?? '';
    expect(store.get(shellRunId)).toMatchObject({ status: 'running' });
    runner.kill(shellRunId);
    await running;
  });

  it('records a shell that cannot be started as exited with the reason', async () => {
    runner = makeRunner({ shell: '/nonexistent/bash' });
    const result = await runner.run(request('true'));
    expect(result).toMatchObject({
      status: 'exited',
      exitCode: null,
      pid: null,
      failureMessage: expect.stringMatching(/^Could not start \/nonexistent\/bash: .*ENOENT/),
    });
    expect(store.get(result.shellRunId)).toMatchObject({ status: 'exited', failureMessage: result.failureMessage });
  });

  it('killAll() ends every live run', async () => {
    const first = runner.run(request('sleep 30'));
    const second = runner.run(request('sleep 30'));
    await waitFor(
      () => runner.liveRunIds().every((id) => store.get(id)?.status === 'running') && runner.liveRunIds().length === 2,
    );
    await runner.killAll();
    expect(await first).toMatchObject({ status: 'killed' });
    expect(await second).toMatchObject({ status: 'killed' });
    expect(runner.liveRunIds()).toEqual([]);
  });
});
