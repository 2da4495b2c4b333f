import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PermissionMode } from '../../src-shared/model';
import { openDatabase } from '../storage/database';
import { startTestHost, type TestHost } from '../testing/host-fixture';
import { startOpenAIChatServer, TEST_API_KEY, textReply } from '../testing/provider-servers';
import { waitFor } from '../testing/wait-for';

let t: TestHost;
let workspace: string;
beforeEach(async () => {
  t = await startTestHost();
  workspace = mkdtempSync(join(tmpdir(), 'cairn-workspace-'));
  writeFileSync(join(workspace, 'notes.md'), 'line one\nline two\n');
});
afterEach(async () => {
  await t.close();
  rmSync(workspace, { recursive: true, force: true });
});

async function session(permissionMode: PermissionMode): Promise<string> {
  return (await t.call('session.create', { workspacePath: workspace, permissionMode })).session.sessionId;
}
const pendingOf = async (sessionId: string) =>
  (await t.call('interaction.list', { sessionId, status: 'pending' })).interactions;
const lastText = async (sessionId: string) =>
  (await t.call('transcript.page', { sessionId })).items.filter((item) => item.kind === 'assistant_message').at(-1)
    ?.text ?? '';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

describe('permission modes', () => {
  it.each<[PermissionMode, string[]]>([
    ['explore', ['read_file', 'list_files', 'glob', 'grep']],
    ['ask', ['read_file', 'list_files', 'glob', 'grep', 'write_file', 'edit_file', 'run_shell']],
    ['full', ['read_file', 'list_files', 'glob', 'grep', 'write_file', 'edit_file', 'run_shell']],
  ])('%s offers the model exactly its tools', async (mode, expected) => {
    const server = await startOpenAIChatServer();
    try {
      const { connection } = await t.call('connection.create', {
        name: 'Test',
        providerType: 'openai_compatible',
        baseUrl: server.baseUrl,
        apiKey: TEST_API_KEY,
      });
      const { session: created } = await t.call('session.create', {
        workspacePath: workspace,
        permissionMode: mode,
        connectionId: connection.connectionId,
        model: 'gpt-4o',
      });
      server.enqueue(textReply('ok'));
      await t.call('turn.start', { sessionId: created.sessionId, turnId: 't1', text: 'hello' });
      await t.waitForTurn(created.sessionId, 't1', ['completed']);
      const body = (await server.waitForModelCall(0)).body as { tools: Array<{ function: { name: string } }> };
      const names = body.tools.map((tool) => tool.function.name);
      expect(
        names
          .filter((name) => expected.includes(name) || ['write_file', 'edit_file', 'run_shell'].includes(name))
          .sort(),
      ).toEqual([...expected].sort());
      expect(names).toContain('ask_user');
    } finally {
      await server.close();
    }
  });

  it('explore refuses a changing tool even when called anyway', async () => {
    const sessionId = await session('explore');
    await t.call('turn.start', { sessionId, turnId: 't1', text: '/tool write_file {"path":"x.txt","content":"no"}' });
    await t.waitForTurn(sessionId, 't1', ['completed']);
    expect(await lastText(sessionId)).toMatch(/There is no tool named \\"write_file\\" here/);
    expect(() => readFileSync(join(workspace, 'x.txt'))).toThrow();
  });

  it('ask shows the diff, and allow once writes the file; the next call asks again', async () => {
    const sessionId = await session('ask');
    await t.call('turn.start', {
      sessionId,
      turnId: 't1',
      text: '/tool edit_file {"path":"notes.md","search":"line two","replace":"line 2"}',
    });
    await t.waitForTurn(sessionId, 't1', ['waiting']);
    const [approval] = await pendingOf(sessionId);
    expect(approval?.request).toMatchObject({
      kind: 'permission',
      toolName: 'edit_file',
      summary: 'Edit notes.md',
      preview: { kind: 'diff', path: 'notes.md' },
    });
    const diff =
      approval?.request.kind === 'permission' && approval.request.preview.kind === 'diff'
        ? approval.request.preview.diff
        : '';
    expect(diff).toContain('-line two');
    expect(diff).toContain('+line 2');
    expect(readFileSync(join(workspace, 'notes.md'), 'utf8')).toBe('line one\nline two\n');
    await t.call('interaction.answer', {
      interactionId: approval!.interactionId,
      answer: { action: 'accept', decision: 'allow_once' },
    });
    await t.waitForTurn(sessionId, 't1', ['completed']);
    expect(readFileSync(join(workspace, 'notes.md'), 'utf8')).toBe('line one\nline 2\n');
    await t.call('turn.start', { sessionId, turnId: 't2', text: '/tool write_file {"path":"b.txt","content":"b"}' });
    await t.waitForTurn(sessionId, 't2', ['waiting']);
    await t.call('turn.stop', { sessionId });
  });

  it('allow for the session stops asking for that tool; deny passes its reason to the agent and changes nothing', async () => {
    const sessionId = await session('ask');
    await t.call('turn.start', {
      sessionId,
      turnId: 't1',
      text: '/tool write_file {"path":"a.txt","content":"first"}',
    });
    await t.waitForTurn(sessionId, 't1', ['waiting']);
    await t.call('interaction.answer', {
      interactionId: (await pendingOf(sessionId))[0]!.interactionId,
      answer: { action: 'accept', decision: 'allow_session' },
    });
    await t.waitForTurn(sessionId, 't1', ['completed']);
    await t.call('turn.start', {
      sessionId,
      turnId: 't2',
      text: '/tool write_file {"path":"a.txt","content":"second"}',
    });
    await t.waitForTurn(sessionId, 't2', ['completed']);
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('second');

    await t.call('turn.start', { sessionId, turnId: 't3', text: '/tool run_shell {"command":"touch denied.txt"}' });
    await t.waitForTurn(sessionId, 't3', ['waiting']);
    const [approval] = await pendingOf(sessionId);
    expect(approval?.request).toMatchObject({
      kind: 'permission',
      toolName: 'run_shell',
      preview: { kind: 'command', command: 'touch denied.txt' },
    });
    await t.call('interaction.answer', {
      interactionId: approval!.interactionId,
      answer: { action: 'deny', reason: 'not in my repo' },
    });
    await t.waitForTurn(sessionId, 't3', ['completed']);
    expect(await lastText(sessionId)).toBe('You did not allow that, so I did not run it. You said: "not in my repo".');
    expect(() => readFileSync(join(workspace, 'denied.txt'))).toThrow();
    const result = (await t.call('transcript.page', { sessionId })).items
      .filter((item) => item.kind === 'tool_result')
      .at(-1);
    expect(result?.data).toMatchObject({ isError: true, output: { action: 'deny', reason: 'not in my repo' } });
  });

  it('a protocol 1 denial ({ action: accept, decision: deny }) is still accepted, and an answer recorded in that shape reads as deny', async () => {
    const sessionId = await session('ask');
    await t.call('turn.start', { sessionId, turnId: 't1', text: '/tool run_shell {"command":"touch denied.txt"}' });
    await t.waitForTurn(sessionId, 't1', ['waiting']);
    const [approval] = await pendingOf(sessionId);
    const answered = await t.call('interaction.answer', {
      interactionId: approval!.interactionId,
      answer: { action: 'accept', decision: 'deny', reason: 'old client' },
    });
    expect(answered.interaction.answer).toEqual({ action: 'deny', reason: 'old client' });
    await t.waitForTurn(sessionId, 't1', ['completed']);
    expect(() => readFileSync(join(workspace, 'denied.txt'))).toThrow();

    // An answer an older host recorded keeps its old shape in the database: it reads as deny.
    const db = openDatabase(t.dataDir);
    try {
      db.prepare('UPDATE interactions SET answer = ? WHERE interaction_id = ?').run(
        JSON.stringify({ action: 'accept', decision: 'deny', reason: 'recorded then' }),
        approval!.interactionId,
      );
    } finally {
      db.close();
    }
    const read = await t.call('interaction.get', { interactionId: approval!.interactionId });
    expect(read.interaction.answer).toEqual({ action: 'deny', reason: 'recorded then' });
  });

  it('a session lists its "Allow for this session" grants, and a revoked grant asks again', async () => {
    const sessionId = await session('ask');
    expect((await t.call('permission.grants.list', { sessionId })).grants).toEqual([]);
    await t.call('turn.start', {
      sessionId,
      turnId: 't1',
      text: '/tool write_file {"path":"a.txt","content":"first"}',
    });
    await t.waitForTurn(sessionId, 't1', ['waiting']);
    await t.call('interaction.answer', {
      interactionId: (await pendingOf(sessionId))[0]!.interactionId,
      answer: { action: 'accept', decision: 'allow_session' },
    });
    await t.waitForTurn(sessionId, 't1', ['completed']);
    const { grants } = await t.call('permission.grants.list', { sessionId });
    expect(grants).toEqual([{ toolName: 'write_file', grantedAt: expect.any(Number), example: 'Write a.txt' }]);
    const other = await session('ask');
    expect((await t.call('permission.grants.list', { sessionId: other })).grants).toEqual([]);

    expect((await t.call('permission.grants.revoke', { sessionId, toolName: 'write_file' })).grants).toEqual([]);
    // Revoking again is not an error; the list stays empty.
    expect((await t.call('permission.grants.revoke', { sessionId, toolName: 'write_file' })).grants).toEqual([]);
    await t.call('turn.start', {
      sessionId,
      turnId: 't2',
      text: '/tool write_file {"path":"a.txt","content":"second"}',
    });
    await t.waitForTurn(sessionId, 't2', ['waiting']);
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('first');
    await t.call('turn.stop', { sessionId });
    expect(await t.invoke('permission.grants.list', { sessionId: 'nope' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  it('full runs everything without asking; the mode can change at any time', async () => {
    const sessionId = await session('full');
    await t.call('turn.start', {
      sessionId,
      turnId: 't1',
      text: '/tool write_file {"path":"full.txt","content":"yes"}',
    });
    await t.waitForTurn(sessionId, 't1', ['completed']);
    expect(readFileSync(join(workspace, 'full.txt'), 'utf8')).toBe('yes');
    await t.call('session.configure', { sessionId, permissionMode: 'ask' });
    await t.call('turn.start', {
      sessionId,
      turnId: 't2',
      text: '/tool write_file {"path":"full.txt","content":"again"}',
    });
    await t.waitForTurn(sessionId, 't2', ['waiting']);
    await t.call('turn.stop', { sessionId });
  });

  it('file tools stay inside the workspace', async () => {
    const sessionId = await session('full');
    await t.call('turn.start', { sessionId, turnId: 't1', text: '/tool read_file {"path":"../../etc/passwd"}' });
    await t.waitForTurn(sessionId, 't1', ['completed']);
    expect(await lastText(sessionId)).toMatch(/read_file failed/);
    expect(await lastText(sessionId)).not.toContain('root:');
  });

  it('refuses the filesystem root and pseudo-filesystems as a workspace, links to them included, and changes nothing', async () => {
    const link = join(workspace, 'to-root');
    symlinkSync('/', link);
    for (const path of ['/', '/proc', '/proc/self/root', '/sys', '/dev', '/dev/shm', '/proc/self/cwd/..', link]) {
      const created = await t.invoke('session.create', { workspacePath: path });
      expect(created.ok ? null : created.error.code, path).toBe('invalid_input');
      expect(created.ok ? '' : created.error.message, path).toMatch(/filesystem root|pseudo-filesystem|system folder/);
    }
    expect((await t.call('session.list', {})).sessions).toHaveLength(0);
    const sessionId = await session('full');
    const moved = await t.invoke('session.configure', { sessionId, workspacePath: '/proc/self/root' });
    expect(moved.ok ? null : moved.error.code).toBe('invalid_input');
    expect((await t.call('session.get', { sessionId })).session.workspacePath).toBe(workspace);
  });
});

describe('choosing a workspace folder in a browser', () => {
  it('workspace.folders lists a folder on the host, home when none is named, and refuses what is not an absolute folder', async () => {
    mkdirSync(join(workspace, 'src'));
    const listed = await t.call('workspace.folders', { path: workspace });
    expect(listed).toMatchObject({
      path: workspace,
      folders: [{ name: 'src', path: join(workspace, 'src') }],
      hiddenCount: 0,
    });
    expect((await t.call('workspace.folders', {})).path).toBe(homedir());
    const relative = await t.invoke('workspace.folders', { path: 'src' });
    expect(relative.ok ? null : relative.error.code).toBe('invalid_input');
    const file = await t.invoke('workspace.folders', { path: join(workspace, 'notes.md') });
    expect(file.ok ? null : file.error).toEqual({
      code: 'invalid_input',
      message: `${join(workspace, 'notes.md')} is a file, not a folder.`,
    });
    const extra = await t.invoke('workspace.folders', { path: workspace, recursive: true } as never);
    expect(extra.ok ? null : extra.error.code).toBe('invalid_input');
  });
});

describe('shell runs', () => {
  it('runs a command, records its exit code and output, and lists it', async () => {
    const sessionId = await session('full');
    await t.call('turn.start', {
      sessionId,
      turnId: 't1',
      text: '/tool run_shell {"command":"echo hello; echo oops >&2; exit 3"}',
    });
    await t.waitForTurn(sessionId, 't1', ['completed']);
    const { shellRuns } = await t.call('shell.list', { sessionId });
    expect(shellRuns[0]).toMatchObject({
      status: 'exited',
      exitCode: 3,
      stdoutTail: 'hello\n',
      stderrTail: 'oops\n',
      toolCallId: 'tool-run-1',
    });
    expect(t.events.some((event) => event.kind === 'shell.changed' && event.shellRun.status === 'exited')).toBe(true);
  });

  it('streams output live and Stop on the turn kills the whole process group', async () => {
    const sessionId = await session('full');
    await t.call('turn.start', {
      sessionId,
      turnId: 't1',
      text: '/tool run_shell {"command":"sleep 30 & echo child $!; for i in 1 2 3; do echo tick $i; done; wait"}',
    });
    const output = await waitFor(
      () => {
        const text = t.events.flatMap((event) => (event.kind === 'shell.output' ? [event.text] : [])).join('');
        return /child (\d+)/.test(text) ? text : null;
      },
      { message: 'live output' },
    );
    const child = Number(/child (\d+)/.exec(output)?.[1]);
    const running = (await t.call('shell.list', { sessionId })).shellRuns[0]!;
    expect(running.status).toBe('running');
    expect(alive(child)).toBe(true);
    await t.call('turn.stop', { sessionId });
    await waitFor(
      async () => (await t.call('shell.get', { shellRunId: running.shellRunId })).shellRun.status === 'killed',
      { message: 'killed' },
    );
    await waitFor(() => !alive(child) && !alive(running.pid ?? 0), { message: 'the process group to be gone' });
  });

  it('shell.kill stops one command', async () => {
    const sessionId = await session('full');
    await t.call('turn.start', { sessionId, turnId: 't1', text: '/tool run_shell {"command":"sleep 30"}' });
    const running = await waitFor(
      async () => (await t.call('shell.list', { sessionId })).shellRuns.find((run) => run.status === 'running'),
      { message: 'a running command' },
    );
    const killed = await t.call('shell.kill', { shellRunId: running.shellRunId });
    expect(killed.killed).toBe(true);
    await t.waitForTurn(sessionId, 't1', ['completed']);
    expect((await t.call('shell.get', { shellRunId: running.shellRunId })).shellRun.status).toBe('killed');
  });
});
