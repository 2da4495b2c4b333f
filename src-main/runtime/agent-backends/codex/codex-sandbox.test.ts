import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ShellRunRecord } from '../../../../src-shared/shell-run-model';
import { startTestHost, type TestHost } from '../../../testing/host-fixture';
import {
  startOpenAIResponsesServer,
  type ProviderTestServer,
  type RecordedRequest,
  type ScriptedReply,
} from '../../../testing/provider-servers';
import { toolLoopModel } from '../../../testing/provider-servers/tool-loop-model';
import { waitFor } from '../../../testing/wait-for';

/*
 * Codex's own sandbox, as Cairn's modes set it, tried with the real `codex app-server` (scripted by a
 * Responses server on loopback): the model asks Codex to run shell commands, and what they could do is
 * read from the disk, a loopback server and the commands' own output.
 *
 * What the commands aim at lies outside the OS temp folder, since Codex's workspace-write sandbox lets
 * a command write /tmp and $TMPDIR: a target under them would prove nothing. The data directory,
 * workspace and targets share one folder under /var/tmp (or the repository's node_modules/.cache),
 * removed after. Codex will not set up its sandbox helper with CODEX_HOME under its temp folder; one
 * test shows that Cairn's own TMPDIR for Codex keeps it working with the data directory under /tmp.
 */

/** The connection's key from Cairn's vault: Codex gets it in its environment, its commands must not. */
const VAULT_KEY = 'sk-cairn-vault-test-key';

let server: ProviderTestServer;
/** What the model answers in the current test: it reads each request, so no request skips a step. */
let model: ((request: RecordedRequest) => ScriptedReply) | null = null;
let t: TestHost | null = null;
let root = '';

/** A fresh folder that is not under the OS temp folder. */
function folderOutsideTemp(): string {
  const temp = realpathSync(tmpdir());
  const candidates = ['/var/tmp', join(process.cwd(), 'node_modules', '.cache')];
  const base = candidates.find(
    (candidate) => existsSync(candidate) && relative(temp, realpathSync(candidate)).startsWith('..'),
  );
  if (base === undefined) throw new Error(`no folder outside ${temp} to put Codex's data directory in`);
  return mkdtempSync(join(base, 'cairn-codex-sandbox-'));
}

/** A loopback server that counts the connections it is offered. */
async function countingServer(): Promise<{ port: number; connections: () => number; close: () => Promise<void> }> {
  let count = 0;
  const listener: Server = createServer((socket) => {
    count += 1;
    socket.end('hello\n');
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const address = listener.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    port: address.port,
    connections: () => count,
    close: () => new Promise((resolve) => listener.close(() => resolve())),
  };
}

beforeAll(async () => {
  server = await startOpenAIResponsesServer({
    fallbackReply: (request) => {
      if (model === null) throw new Error('no model is scripted for this request');
      return model(request);
    },
  });
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  model = null;
  await t?.close();
  t = null;
  rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
});

async function codexSession(permissionMode: 'auto' | 'full', where: 'outside temp' | 'in temp' = 'outside temp') {
  root = where === 'in temp' ? mkdtempSync(join(tmpdir(), 'cairn-codex-sandbox-')) : folderOutsideTemp();
  const dataDir = join(root, 'data');
  const workspace = join(root, 'work');
  const outside = join(root, 'outside');
  for (const folder of [dataDir, workspace, outside]) mkdirSync(folder);
  // Auto is offered only where Cairn's own sandbox is: this test pins it on, as the machine has it.
  t = await startTestHost({ dataDir, sandbox: 'detect', codex: { retries: 0, bounds: { interruptMs: 1000 } } });
  const host = t;
  const { connection } = await host.call('connection.create', {
    name: 'Codex',
    providerType: 'codex',
    baseUrl: server.baseUrl,
    apiKey: VAULT_KEY,
  });
  const { session } = await host.call('session.create', {
    connectionId: connection.connectionId,
    permissionMode,
    workspacePath: workspace,
  });
  return { host, sessionId: session.sessionId, workspace, outside, dataDir };
}

/** The turn's end; Codex turns of several commands take seconds on a loaded machine. */
async function turnEnds(host: TestHost, sessionId: string): Promise<string> {
  return waitFor(
    async () => {
      const outcome = await host.invoke('turn.query', { sessionId, turnId: 't1' });
      return outcome.ok && ['completed', 'failed', 'cancelled'].includes(outcome.result.turn.status)
        ? outcome.result.turn.status
        : null;
    },
    { timeoutMs: 60_000, message: 'the Codex turn to end' },
  );
}

/** Runs `commands` in one turn as runCommands does, and returns what Codex sent the model for each, in order. */
async function commandResultsSeenByModel(
  host: TestHost,
  sessionId: string,
  commands: readonly string[],
): Promise<string[]> {
  model = toolLoopModel(
    commands.map((cmd, index) => ({
      id: `call_${index}`,
      name: 'exec_command',
      input: { cmd: `: step-${index}; ${cmd}` },
    })),
    'Done.',
  );
  await host.call('turn.start', { sessionId, turnId: 't1', text: 'Run the commands' });
  expect(await turnEnds(host, sessionId)).toBe('completed');
  return commands.map((_command, index) => {
    const result = server.toolResultFor(`call_${index}`);
    if (result === null) throw new Error(`Codex sent the model no result for command ${index}`);
    return result.content;
  });
}

/** Runs `commands` in one turn, each as an exec_command the model asks for, and returns their shell runs in order. */
async function runCommands(host: TestHost, sessionId: string, commands: readonly string[]): Promise<ShellRunRecord[]> {
  // Each command starts with a no-op naming its step, to find its run whatever the quoting Codex adds.
  const step = (index: number) => `: step-${index};`;
  model = toolLoopModel(
    commands.map((cmd, index) => ({
      id: `call_${index}`,
      name: 'exec_command',
      input: { cmd: `${step(index)} ${cmd}` },
    })),
    'Done.',
  );
  const firstCall = server.modelCalls().length;
  await host.call('turn.start', { sessionId, turnId: 't1', text: 'Run the commands' });
  expect(await turnEnds(host, sessionId)).toBe('completed');
  // Should a command be missing, say which results each model request carried, to tell a request Codex
  // made besides the turn's own from a command that ran but was not recorded.
  const answered = () =>
    server
      .modelCalls()
      .map((_call, index) => server.toolResultsIn(index).map((result) => result.toolCallId))
      .slice(firstCall);
  // A command's run is recorded from Codex's item events, which may land just after its turn ended
  // (seen once under load: both results had reached the model, one run was not yet in the record).
  const shellRuns = await waitFor(
    async () => {
      const { shellRuns: runs } = await host.call('shell.list', { sessionId, limit: 50 });
      return runs.length >= commands.length ? runs : null;
    },
    {
      timeoutMs: 20_000,
      message: `every command's shell run; results each model request carried: ${JSON.stringify(answered())}`,
    },
  );
  expect(shellRuns, `results each model request carried: ${JSON.stringify(answered())}`).toHaveLength(commands.length);
  return commands.map((command, index) => {
    const run = shellRuns.find((each) => each.command.includes(step(index)));
    if (run === undefined) throw new Error(`no shell run for ${command}`);
    return run;
  });
}

const outputOf = (run: ShellRunRecord) => `${run.stdoutTail}${run.stderrTail}`;

// Retried (each attempt on a fresh host, every assertion kept): now and then a command Codex ran and
// reported to the model is missing from Cairn's record of shell runs, the diagnostic above says which
// results each request carried. Left open in the closing note; the retry keeps CI from hanging on it.
describe("Codex's own sandbox in Cairn's modes", { timeout: 120_000, retry: 2 }, () => {
  it("Auto: a command writes inside the workspace; a write outside it, a planted git hook, a connection to a loopback server and a signal to the host are refused; the connection's key is not in its environment", async () => {
    const { host, sessionId, workspace, outside } = await codexSession('auto');
    execFileSync('git', ['init', '-q', workspace]);
    const listener = await countingServer();
    try {
      const connect = `node -e "require('net').connect(${listener.port}, '127.0.0.1').on('connect', () => { console.log('connected'); process.exit(0); }).on('error', (error) => { console.log('net-error', error.code); process.exit(3); })"`;
      const [inside, escape, hook, network, signal, environment] = await runCommands(host, sessionId, [
        'echo made-inside > inside.txt && cat inside.txt',
        `mkdir ${join(outside, 'fresh')} 2>&1; echo escaped > ${join(outside, 'escape.txt')} 2>&1`,
        'echo "touch planted" > .git/hooks/pre-commit 2>&1',
        connect,
        `kill -0 ${process.pid} 2>&1`,
        'env',
      ]);

      expect(inside).toMatchObject({ status: 'exited', exitCode: 0 });
      expect(readFileSync(join(workspace, 'inside.txt'), 'utf8')).toBe('made-inside\n');

      expect(escape?.exitCode).not.toBe(0);
      expect(outputOf(escape!)).toContain('Read-only file system');
      expect(existsSync(join(outside, 'fresh'))).toBe(false);
      expect(existsSync(join(outside, 'escape.txt'))).toBe(false);

      // Codex keeps .git read-only inside a writable workspace: no hook for a later, unsandboxed git to run.
      expect(hook?.exitCode).not.toBe(0);
      expect(outputOf(hook!)).toContain('Read-only file system');
      expect(existsSync(join(workspace, '.git', 'hooks', 'pre-commit'))).toBe(false);

      // Network off: the socket itself is refused (seccomp), and the server never sees a connection.
      expect(network?.exitCode).toBe(3);
      expect(outputOf(network!)).toContain('net-error EPERM');
      expect(listener.connections()).toBe(0);

      // Its own PID namespace: the host's pid does not exist in there.
      expect(signal?.exitCode).not.toBe(0);
      expect(outputOf(signal!)).toContain('No such process');

      // Codex leaves variables named like secrets out of a command's environment: the vault key stays with Codex.
      expect(environment).toMatchObject({ exitCode: 0 });
      expect(outputOf(environment!)).toContain('PATH=');
      expect(outputOf(environment!)).not.toContain(VAULT_KEY);
    } finally {
      await listener.close();
    }
  });

  it('Auto with the data directory under the OS temp folder: Codex still sets up its sandbox (Cairn gives it a TMPDIR beside CODEX_HOME)', async () => {
    const { host, sessionId, workspace } = await codexSession('auto', 'in temp');
    expect(workspace.startsWith(realpathSync(tmpdir()))).toBe(true);
    const elsewhere = folderOutsideTemp();
    try {
      // What each command returned, as Codex sent it to the model: in this layout one command's run has
      // reached Cairn's record late or not at all (left open in the closing note), so the wall is checked
      // on the file system and in what the model was told.
      const [inside, escape] = await commandResultsSeenByModel(host, sessionId, [
        'echo made-inside > inside.txt',
        `echo escaped > ${join(elsewhere, 'escape.txt')} 2>&1`,
      ]);
      expect(inside).not.toContain('Read-only file system');
      expect(readFileSync(join(workspace, 'inside.txt'), 'utf8')).toBe('made-inside\n');
      expect(escape).toContain('Read-only file system');
      expect(existsSync(join(elsewhere, 'escape.txt'))).toBe(false);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('Auto, what Codex’s sandbox does not cover (as docs/sandbox.md says): reads outside the workspace, Cairn’s data directory included, and writes to /tmp', async () => {
    const { host, sessionId, outside, dataDir } = await codexSession('auto');
    const secret = join(outside, 'id_test');
    writeFileSync(secret, 'not-really-a-key\n', { mode: 0o600 });
    const scratch = join('/tmp', `cairn-codex-sandbox-${process.pid}-${Date.now()}`);
    try {
      const [readSecret, readData, writeTmp] = await runCommands(host, sessionId, [
        `cat ${secret}`,
        `ls ${dataDir} && wc -c < ${join(dataDir, 'secret.key')}`,
        `echo left-behind > ${scratch} && cat ${scratch}`,
      ]);
      expect(readSecret).toMatchObject({ exitCode: 0 });
      expect(outputOf(readSecret!)).toContain('not-really-a-key');
      expect(readData).toMatchObject({ exitCode: 0 });
      expect(outputOf(readData!)).toContain('secret.key');
      expect(writeTmp).toMatchObject({ exitCode: 0 });
      expect(readFileSync(scratch, 'utf8')).toBe('left-behind\n');
    } finally {
      rmSync(scratch, { force: true });
    }
  });

  it('Auto: a command Codex wants to run outside its sandbox comes to Cairn’s approval card; nothing runs before the answer, and allowed it runs outside', async () => {
    const { host, sessionId, outside } = await codexSession('auto');
    const target = join(outside, 'escalated.txt');
    const command = `echo escalated > ${target}`;
    model = toolLoopModel(
      [
        {
          id: 'call_esc',
          name: 'exec_command',
          input: {
            cmd: command,
            sandbox_permissions: 'require_escalated',
            justification: 'Needs to write outside the workspace',
          },
        },
      ],
      'Written.',
    );
    await host.call('turn.start', { sessionId, turnId: 't1', text: 'Write outside' });
    const interaction = await waitFor(
      async () => (await host.call('interaction.list', { sessionId, status: 'pending' })).interactions[0],
      {
        message: 'the approval card',
        timeoutMs: 30_000,
      },
    );
    expect(interaction.request).toMatchObject({
      kind: 'permission',
      toolName: 'run_shell',
      preview: { kind: 'command', command: expect.stringContaining(command) as unknown },
    });
    expect(existsSync(target)).toBe(false);
    await host.call('interaction.answer', {
      interactionId: interaction.interactionId,
      answer: { action: 'accept', decision: 'allow_once' },
    });
    expect(await turnEnds(host, sessionId)).toBe('completed');
    expect(readFileSync(target, 'utf8')).toBe('escalated\n');
  });

  it("Full: Codex runs without a sandbox; a write outside the workspace works, unasked; the connection's key stays out of the environment", async () => {
    const { host, sessionId, outside } = await codexSession('full');
    const target = join(outside, 'fresh', 'full.txt');
    const [write, environment] = await runCommands(host, sessionId, [
      `mkdir ${join(outside, 'fresh')} && echo full > ${target}`,
      'env',
    ]);
    expect(write).toMatchObject({ exitCode: 0 });
    expect(outputOf(environment!)).toContain('PATH=');
    expect(outputOf(environment!)).not.toContain(VAULT_KEY);
    expect(readFileSync(target, 'utf8')).toBe('full\n');
    expect((await host.call('interaction.list', { sessionId, status: 'pending' })).interactions).toHaveLength(0);
  });
});
