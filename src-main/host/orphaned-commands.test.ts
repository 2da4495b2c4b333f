import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { processGone, processGroupGone } from '../runtime/shell/process-group';
import { processStartIdentity } from '../runtime/shell/process-identity';
import { ORPHAN_MESSAGES } from '../runtime/shell/orphan-recovery';
import { openStores } from '../storage/stores';
import { startTestHost, useTempDirs, type TestHost } from '../testing/host-fixture';
import { waitFor } from '../testing/wait-for';

const dir = useTempDirs();
const groups: number[] = [];
const hosts: TestHost[] = [];
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close();
  for (const pgid of groups.splice(0)) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

/** A command in its own process group that only writes to a file, as a dead host's command would be. */
function startLoop(folder: string): { pid: number; file: string } {
  const file = join(folder, 'ticks');
  const child = spawn('bash', ['-c', `while true; do date >> '${file}'; sleep 0.2; done`], {
    detached: true,
    stdio: 'ignore',
  });
  child.unref();
  if (child.pid === undefined) throw new Error('the loop did not start');
  groups.push(child.pid);
  return { pid: child.pid, file };
}

/**
 * A data directory whose record says the command `pid` is running (as a SIGKILLed host leaves it),
 * with `processStart` as its recorded start identity.
 */
async function leftRunning(
  pid: number,
  processStart: string | null,
): Promise<{ dataDir: string; sessionId: string; shellRunId: string }> {
  const dataDir = dir();
  const first = await startTestHost({ dataDir });
  const { session } = await first.call('session.create', {});
  await first.close();
  const stores = openStores(dataDir);
  try {
    stores.shellRuns.insert({
      shellRunId: 'left',
      sessionId: session.sessionId,
      turnId: 't',
      runId: 'r',
      toolCallId: null,
      command: 'loop',
      cwd: dataDir,
      now: 1,
    });
    stores.shellRuns.markRunning('left', pid, processStart);
  } finally {
    stores.close();
  }
  return { dataDir, sessionId: session.sessionId, shellRunId: 'left' };
}

async function restart(dataDir: string): Promise<TestHost> {
  const host = await startTestHost({ dataDir });
  hosts.push(host);
  return host;
}

/** The loop may not have written its first tick yet (bash starts slowly under load): no file counts as empty. */
const growing = async (file: string) => {
  const size = () => statSync(file, { throwIfNoEntry: false })?.size ?? 0;
  const before = size();
  await waitFor(() => size() > before, { message: `${file} to grow` });
  return true;
};

describe('commands a dead host left running', () => {
  it('are stopped at the next start when provably the same process, and the record says so', async () => {
    const loop = startLoop(dir());
    await waitFor(() => statSync(loop.file, { throwIfNoEntry: false })?.size);
    const left = await leftRunning(loop.pid, processStartIdentity(loop.pid));
    const host = await restart(left.dataDir);
    await waitFor(() => processGroupGone(loop.pid), { message: 'the left-over command to be stopped' });
    const { shellRun } = await host.call('shell.get', { shellRunId: left.shellRunId });
    expect(shellRun).toMatchObject({
      status: 'orphaned',
      failureMessage: 'Cairn stopped this command, which was still running after the app restarted.',
    });
  });

  it('leave a process alone whose pid was reused (its start time differs), and say that the command is gone', async () => {
    const loop = startLoop(dir());
    const identity = processStartIdentity(loop.pid) ?? '';
    const earlier = identity.replace(/\d+$/, (ticks) => String(Number(ticks) - 1));
    expect(earlier).not.toBe(identity);
    const left = await leftRunning(loop.pid, earlier);
    const host = await restart(left.dataDir);
    const { shellRun } = await host.call('shell.get', { shellRunId: left.shellRunId });
    expect(shellRun).toMatchObject({ status: 'orphaned', failureMessage: ORPHAN_MESSAGES.reused });
    expect(await growing(loop.file)).toBe(true);
    // Stop does not touch it either.
    expect(await host.call('shell.kill', { shellRunId: left.shellRunId })).toMatchObject({ killed: false });
    expect(await growing(loop.file)).toBe(true);
  });

  it('leave a process alone when its identity was never recorded, and say so', async () => {
    const loop = startLoop(dir());
    const left = await leftRunning(loop.pid, null);
    const host = await restart(left.dataDir);
    const { shellRun } = await host.call('shell.get', { shellRunId: left.shellRunId });
    expect(shellRun).toMatchObject({ status: 'orphaned', failureMessage: ORPHAN_MESSAGES.unproven });
    expect(processGone(loop.pid)).toBe(false);
    expect(await growing(loop.file)).toBe(true);
  });

  it('say the command was no longer running when its group is gone', async () => {
    const gone = spawn('true', { detached: true, stdio: 'ignore' });
    const pid = await new Promise<number>((resolve) => gone.once('exit', () => resolve(gone.pid ?? 0)));
    const left = await leftRunning(pid, 'linux:boot:1');
    const host = await restart(left.dataDir);
    expect((await host.call('shell.get', { shellRunId: left.shellRunId })).shellRun).toMatchObject({
      status: 'orphaned',
      failureMessage: ORPHAN_MESSAGES.gone,
    });
  });

  it('shell.kill stops an orphaned command that is provably the same process', async () => {
    const loop = startLoop(dir());
    const identity = processStartIdentity(loop.pid);
    // The record already says orphaned (say its host stopped only part of the way): Stop must still reach it.
    const left = await leftRunning(loop.pid, identity);
    const stores = openStores(left.dataDir);
    try {
      stores.shellRuns.markOrphaned(left.shellRunId, ORPHAN_MESSAGES.no_pid, 2);
    } finally {
      stores.close();
    }
    const host = await restart(left.dataDir);
    expect(processGone(loop.pid)).toBe(false);
    const killed = await host.call('shell.kill', { shellRunId: left.shellRunId });
    expect(killed).toMatchObject({
      killed: true,
      shellRun: { status: 'orphaned', failureMessage: ORPHAN_MESSAGES.stopped_by_you },
    });
    await waitFor(() => processGroupGone(loop.pid), { message: 'the orphaned command to be stopped' });
    expect(
      host.events.some(
        (event) => event.kind === 'shell.changed' && event.shellRun.failureMessage === ORPHAN_MESSAGES.stopped_by_you,
      ),
    ).toBe(true);
  });
});
