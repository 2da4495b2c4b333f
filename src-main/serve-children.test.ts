import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { processGone } from './runtime/shell/process-group';
import { tempDataDir } from './testing/host-fixture';
import { connectProtocolClient, type ProtocolClient } from './testing/protocol-client';
import { SERVE_PROCESS_TESTS, startServeProcess, type ServeProcess } from './testing/serve-process';
import { waitFor } from './testing/wait-for';

/**
 * What a real headless host's commands can reach (issue 40 point 7, issue 41): not the host's token,
 * and no process of theirs outlives Stop or a SIGKILLed host, even one that left its process group.
 */

const TOKEN = 'serve-children-token-123';
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(dataDir: string): Promise<{ server: ServeProcess; client: ProtocolClient }> {
  const server = await startServeProcess({ dataDir, token: TOKEN });
  cleanups.push(async () => {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    await server.exited;
  });
  const client = await connectProtocolClient(server.wsUrl, { token: TOKEN });
  cleanups.push(() => client.close().catch(() => {}));
  return { server, client };
}

/** Folders for a data directory and a workspace, removed after the test. */
function folders() {
  const data = tempDataDir();
  const workspace = tempDataDir();
  cleanups.push(data.cleanup, workspace.cleanup);
  return { dataDir: data.dir, workspace: workspace.dir };
}

/** Escaped processes the test must not leave behind if Cairn does. */
function killAfter(pids: readonly number[]) {
  cleanups.push(() => {
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone, as it should be
      }
    }
  });
}

/** Runs a command in a Full-mode session; `pidFiles` are waited for and their pids returned. */
async function runCommand(c: ProtocolClient, workspace: string, command: string, pidFiles: readonly string[]) {
  const { session } = await c.call('session.create', { workspacePath: workspace, permissionMode: 'full' });
  await c.call('turn.start', {
    sessionId: session.sessionId,
    turnId: 'sh',
    text: `/tool run_shell ${JSON.stringify({ command })}`,
  });
  const pids = await waitFor(
    () => {
      const read = pidFiles.map((name) =>
        existsSync(join(workspace, name)) ? Number(readFileSync(join(workspace, name), 'utf8').trim()) : 0,
      );
      return read.every((pid) => pid > 0) ? read : null;
    },
    { message: 'the escaped processes to write their pids' },
  );
  killAfter(pids);
  return { sessionId: session.sessionId, pids };
}

/** A setsid'd process holding the output open, and a daemon's double fork (parented by init, its own session). */
const ESCAPES =
  "setsid sh -c 'echo $$ > held.pid; exec sleep 300' & " +
  "setsid sh -c 'sleep 300 >/dev/null 2>&1 & echo $! > daemon.pid' & " +
  'while true; do sleep 1; done';

describe('a headless host’s commands', SERVE_PROCESS_TESTS, () => {
  it('do not see the host’s token or any CAIRN_ variable', async () => {
    const { dataDir, workspace } = folders();
    const { client: c } = await serve(dataDir);
    const { session } = await c.call('session.create', { workspacePath: workspace, permissionMode: 'full' });
    await c.call('turn.start', {
      sessionId: session.sessionId,
      turnId: 'env',
      text: `/tool run_shell ${JSON.stringify({ command: 'env > seen.env' })}`,
    });
    const seen = await waitFor(
      () => (existsSync(join(workspace, 'seen.env')) ? readFileSync(join(workspace, 'seen.env'), 'utf8') : null),
      { message: 'the command to run' },
    );
    await waitFor(
      async () =>
        (await c.call('shell.list', { sessionId: session.sessionId })).shellRuns.some((run) => run.status === 'exited'),
      { message: 'it to end' },
    );
    expect(seen).toContain('PATH=');
    expect(seen).not.toContain(TOKEN);
    expect(seen).not.toMatch(/^CAIRN_/m);
  });

  it('leave nothing running after Stop, not even processes that left the group', async () => {
    const { dataDir, workspace } = folders();
    const { client: c } = await serve(dataDir);
    const { sessionId, pids } = await runCommand(c, workspace, ESCAPES, ['held.pid', 'daemon.pid']);
    await c.call('turn.stop', { sessionId, turnId: 'sh' });
    for (const pid of pids) await waitFor(() => processGone(pid), { message: `process ${pid} to be stopped` });
  });

  it('leave nothing running after a SIGKILLed host starts again, not even processes that left the group', async () => {
    const { dataDir, workspace } = folders();
    const first = await serve(dataDir);
    const { sessionId, pids } = await runCommand(first.client, workspace, ESCAPES, ['held.pid', 'daemon.pid']);
    first.server.child.kill('SIGKILL');
    await first.server.exited;
    expect(pids.filter((pid) => processGone(pid))).toEqual([]);

    const second = await serve(dataDir);
    for (const pid of pids)
      await waitFor(() => processGone(pid), { message: `process ${pid} to be stopped at the next start` });
    const { shellRuns } = await second.client.call('shell.list', { sessionId });
    expect(shellRuns[0]).toMatchObject({
      status: 'orphaned',
      failureMessage: 'Cairn stopped this command, which was still running after the app restarted.',
    });
  });
});
