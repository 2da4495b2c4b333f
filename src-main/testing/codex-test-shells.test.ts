import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { codexHomeOf } from '../runtime/agent-backends/codex/codex-config';
import { tempDataDir } from './host-fixture';
import { connectProtocolClient, type ProtocolClient } from './protocol-client';
import { startOpenAIResponsesServer, textReply, toolCallReply, type ProviderTestServer } from './provider-servers';
import { SERVE_PROCESS_TESTS, startServeProcess, type ServeProcess } from './serve-process';
import { waitFor } from './wait-for';

const TOKEN = 'codex-test-shells-token';
let cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

describe('a host started as a process for a test', SERVE_PROCESS_TESTS, () => {
  it("gives Codex's shells the one-second pyenv lock wait through its CODEX_HOME config", async () => {
    const server: ProviderTestServer = await startOpenAIResponsesServer();
    cleanups.push(() => server.close());
    const data = tempDataDir();
    cleanups.push(data.cleanup);
    const workspace = mkdtempSync(join(tmpdir(), 'cairn-test-shells-'));
    cleanups.push(() => rmSync(workspace, { recursive: true, force: true }));
    const host: ServeProcess = await startServeProcess({ dataDir: data.dir, token: TOKEN });
    cleanups.push(async () => {
      host.child.kill('SIGTERM');
      await host.exited;
    });
    expect(readFileSync(join(codexHomeOf(data.dir), 'config.toml'), 'utf8')).toContain('PYENV_REHASH_TIMEOUT = "1"');
    const client: ProtocolClient = await connectProtocolClient(host.wsUrl, { token: TOKEN });
    cleanups.push(() => client.close());

    const { connection } = await client.call('connection.create', {
      name: 'Codex',
      providerType: 'codex',
      baseUrl: server.baseUrl,
    });
    const { session } = await client.call('session.create', {
      connectionId: connection.connectionId,
      permissionMode: 'full',
      workspacePath: workspace,
    });
    server.enqueue(
      toolCallReply({
        id: 'call_env',
        name: 'exec_command',
        input: { cmd: 'echo "rehash-timeout=${PYENV_REHASH_TIMEOUT:-unset}"' },
      }),
      textReply('Printed.'),
    );
    await client.call('turn.start', { sessionId: session.sessionId, turnId: 't1', text: 'Print the setting' });
    const run = await waitFor(
      async () =>
        (await client.call('shell.list', { sessionId: session.sessionId, limit: 5 })).shellRuns.find(
          (each) => each.status === 'exited',
        ),
      {
        message: 'the command to finish',
        timeoutMs: 30_000,
      },
    );
    expect(run.stdoutTail).toContain('rehash-timeout=1');
  });
});
