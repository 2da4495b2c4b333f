import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TranscriptItem } from '../../src-shared/model';
import { testAgentCommand } from '../testing/acp-test-agent-launch';
import { startTestHost, type TestHost } from '../testing/host-fixture';
import { startOpenAIChatServer, TEST_API_KEY, textReply, type ProviderTestServer } from '../testing/provider-servers';
import { waitFor } from '../testing/wait-for';
import { runHookProcess } from '../runtime/hooks/hook-process';
import { processesMarkedWith, runMarker } from '../runtime/shell/escaped-processes';

/**
 * The person's hooks in Claude Code's format, run by a real host at the steps of real turns (the
 * Offline demo's `/tool` directives stand in for the model; a loopback OpenAI-format server where the
 * model must receive something). Each hook is a real shell script reading the event on stdin.
 */

let hosts: TestHost[] = [];
let servers: ProviderTestServer[] = [];
let folders: string[] = [];

afterEach(async () => {
  for (const host of hosts) await host.close();
  for (const server of servers) await server.close();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  hosts = [];
  servers = [];
  folders = [];
});

function folder(): string {
  const made = mkdtempSync(path.join(tmpdir(), 'cairn-hooks-'));
  folders.push(made);
  return made;
}

async function host(): Promise<TestHost> {
  const started = await startTestHost();
  hosts.push(started);
  return started;
}

/** Writes a hook script and returns the command that runs it. */
function script(dir: string, name: string, body: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

function hooksFile(file: string, hooks: Record<string, unknown[]>): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ hooks }, null, 2));
}

const command = (cmd: string, extra: Record<string, unknown> = {}) => ({ type: 'command', command: cmd, ...extra });

async function transcript(t: TestHost, sessionId: string): Promise<readonly TranscriptItem[]> {
  return (await t.call('transcript.page', { sessionId, limit: 200 })).items;
}

const hookNotices = (items: readonly TranscriptItem[]) =>
  items.filter((item) => item.kind === 'notice' && item.data?.hook !== undefined);

async function runTool(t: TestHost, sessionId: string, turnId: string, tool: string, input: unknown) {
  await t.call('turn.start', { sessionId, turnId, text: `/tool ${tool} ${JSON.stringify(input)}` });
  return t.waitForTurn(sessionId, turnId, ['completed', 'waiting', 'failed']);
}

describe('hooks around tool calls', () => {
  it('a PreToolUse hook blocks rm -rf: the command never runs, the model sees why, the transcript names the hook', async () => {
    const t = await host();
    const ws = folder();
    writeFileSync(path.join(ws, 'x'), 'keep me');
    const guard = script(
      folder(),
      'no-rm-rf.sh',
      `input=$(cat)\ncase "$input" in *'rm -rf'*) echo "rm -rf is not allowed here" >&2; exit 2;; esac\nexit 0`,
    );
    hooksFile(path.join(t.dataDir, 'hooks.json'), { PreToolUse: [{ matcher: 'Bash', hooks: [command(guard)] }] });
    const { session } = await t.call('session.create', { workspacePath: ws, permissionMode: 'full' });
    await runTool(t, session.sessionId, 't1', 'run_shell', { command: 'rm -rf x' });
    expect(readFileSync(path.join(ws, 'x'), 'utf8')).toBe('keep me');
    const items = await transcript(t, session.sessionId);
    const result = items.find((item) => item.kind === 'tool_result');
    expect(result?.data).toMatchObject({
      isError: true,
      output: {
        error: `Blocked by the PreToolUse hook "${guard}": rm -rf is not allowed here`,
        blockedByHook: { event: 'PreToolUse', command: guard },
      },
    });
    const [notice] = hookNotices(items);
    expect(notice?.text).toBe(`PreToolUse hook blocked: ${guard} — rm -rf is not allowed here`);
    expect(notice?.data).toMatchObject({ toolCallId: result?.data?.toolCallId, hook: { exitCode: 2 } });

    // Another command passes the same hook and runs.
    await runTool(t, session.sessionId, 't2', 'run_shell', { command: 'echo ok > y' });
    expect(readFileSync(path.join(ws, 'y'), 'utf8')).toBe('ok\n');
  });

  it('a PermissionRequest hook that allows runs the call in Ask without waiting for the person', async () => {
    const t = await host();
    const ws = folder();
    const allow = { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } };
    hooksFile(path.join(t.dataDir, 'hooks.json'), {
      PermissionRequest: [{ matcher: 'Bash', hooks: [command(`echo '${JSON.stringify(allow)}'`)] }],
    });
    const { session } = await t.call('session.create', { workspacePath: ws, permissionMode: 'ask' });
    const turn = await runTool(t, session.sessionId, 't1', 'run_shell', { command: 'echo allowed > a.txt' });
    expect(turn.status).toBe('completed');
    expect(readFileSync(path.join(ws, 'a.txt'), 'utf8')).toBe('allowed\n');
  });

  it("a PreToolUse hook's updatedInput replaces the call's input (Claude Code's shape), and its ask makes Full ask", async () => {
    const t = await host();
    const ws = folder();
    const rewrite = {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        updatedInput: { command: 'echo safer > out.txt' },
      },
    };
    hooksFile(path.join(t.dataDir, 'hooks.json'), {
      PreToolUse: [
        { matcher: 'Bash', hooks: [command(`echo '${JSON.stringify(rewrite)}'`)] },
        { matcher: 'Write', hooks: [command(`echo '{"hookSpecificOutput":{"permissionDecision":"ask"}}'`)] },
      ],
    });
    const { session } = await t.call('session.create', { workspacePath: ws, permissionMode: 'full' });
    await runTool(t, session.sessionId, 't1', 'run_shell', { command: 'echo risky > out.txt' });
    expect(readFileSync(path.join(ws, 'out.txt'), 'utf8')).toBe('safer\n');
    const call = (await transcript(t, session.sessionId)).find((item) => item.kind === 'tool_call');
    expect(call?.data).toMatchObject({ input: { command: 'echo safer > out.txt' } });

    const asked = await runTool(t, session.sessionId, 't2', 'write_file', { path: 'a.txt', content: 'x' });
    expect(asked.status).toBe('waiting');
    expect(existsSync(path.join(ws, 'a.txt'))).toBe(false);
    const [pending] = (await t.call('interaction.list', { sessionId: session.sessionId, status: 'pending' }))
      .interactions;
    expect(pending?.request).toMatchObject({ kind: 'permission', summary: 'A hook asks you first: write_file' });
  });

  it("a PostToolUse hook formats the written file, and its change is in the turn's checkpoint", async () => {
    const t = await host();
    const ws = folder();
    // Reads tool_input.file_path (Claude Code's shape, an absolute path) and squeezes runs of spaces.
    const formatter = script(
      folder(),
      'format.sh',
      `file=$(node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).tool_input.file_path))')\nsed -i 's/  */ /g' "$file"`,
    );
    hooksFile(path.join(t.dataDir, 'hooks.json'), {
      PostToolUse: [{ matcher: 'Write|Edit', hooks: [command(formatter)] }],
    });
    const { session } = await t.call('session.create', { workspacePath: ws, permissionMode: 'full' });
    await runTool(t, session.sessionId, 't1', 'write_file', { path: 'a.txt', content: 'one    two     three\n' });
    expect(readFileSync(path.join(ws, 'a.txt'), 'utf8')).toBe('one two three\n');
    const changeSet = await waitFor(async () => {
      const listed = await t.call('changes.list', { sessionId: session.sessionId, turnId: 't1' });
      const found = listed.changeSets[0];
      return found !== undefined && found.status === 'complete' ? found : null;
    });
    const diff = await t.call('changes.diff', {
      sessionId: session.sessionId,
      changeSetId: changeSet.changeSetId,
      path: 'a.txt',
    });
    expect(diff.diff).toContain('+one two three');
    expect(hookNotices(await transcript(t, session.sessionId))[0]?.text).toBe(
      `PostToolUse hook ran (exit 0): ${formatter}`,
    );
  });

  it('a hook that times out is named and the turn goes on; with onError "fail" it blocks, naming the hook', async () => {
    const t = await host();
    const ws = folder();
    hooksFile(path.join(t.dataDir, 'hooks.json'), {
      PreToolUse: [{ matcher: 'Bash', hooks: [command('sleep 30', { timeout: 1 })] }],
    });
    const { session } = await t.call('session.create', { workspacePath: ws, permissionMode: 'full' });
    const started = Date.now();
    await runTool(t, session.sessionId, 't1', 'run_shell', { command: 'echo ran > out.txt' });
    expect(Date.now() - started).toBeLessThan(25_000);
    expect(readFileSync(path.join(ws, 'out.txt'), 'utf8')).toBe('ran\n');
    expect(hookNotices(await transcript(t, session.sessionId))[0]?.text).toBe(
      'PreToolUse hook failed (timed out after 1 s); the turn went on: sleep 30',
    );

    hooksFile(path.join(t.dataDir, 'hooks.json'), {
      PreToolUse: [{ matcher: 'run_shell', hooks: [command('sleep 30', { timeout: 1, onError: 'fail' })] }],
    });
    await runTool(t, session.sessionId, 't2', 'run_shell', { command: 'echo again > out2.txt' });
    expect(existsSync(path.join(ws, 'out2.txt'))).toBe(false);
    const result = (await transcript(t, session.sessionId)).filter((item) => item.kind === 'tool_result').at(-1);
    expect(JSON.stringify(result?.data)).toContain('the hook \\"sleep 30\\" timed out after 1 s');
  });
});

describe('hooks a dead host left running', () => {
  it('are stopped when the next host of the data directory starts, before it serves', async () => {
    const dataDir = folder();
    // What a host killed mid-hook leaves: the hook's processes, carrying that host's marker.
    const marker = runMarker(dataDir, 'hooks.dead-host.1');
    const left = runHookProcess({
      command: 'sleep 300',
      input: '{}',
      cwd: dataDir,
      env: {},
      timeoutMs: 600_000,
      marker,
    });
    await waitFor(() => processesMarkedWith(marker).length === 2);
    const t = await startTestHost({ dataDir });
    hosts.push(t);
    expect((await left).exitCode).toBeNull();
    await waitFor(() => processesMarkedWith(marker).length === 0);
  });
});

describe('hook settings files', () => {
  it('a malformed file is a clear error naming the file and line, and no hook from it runs', async () => {
    const t = await host();
    const ws = folder();
    const file = path.join(t.dataDir, 'hooks.json');
    writeFileSync(file, '{\n  "hooks": {\n    "PreToolUse": [ { "matcher": "Bash", }\n  }\n}\n');
    const listed = await t.call('hooks.list', { workspacePath: ws });
    expect(listed.errors).toEqual([
      { path: file, message: expect.stringMatching(new RegExp(`^${file}: not valid JSON at line 3, column \\d+`)) },
    ]);
    expect(listed.hooks).toEqual([]);

    writeFileSync(
      file,
      JSON.stringify(
        {
          hooks: {
            PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'exit 2', timeout: 'soon' }] }],
          },
        },
        null,
        2,
      ),
    );
    const wrongType = await t.call('hooks.list', { workspacePath: ws });
    expect(wrongType.errors[0]?.message).toMatch(
      new RegExp(`^${file}: line \\d+: hooks\\.PreToolUse\\[0\\]\\.hooks\\[0\\]\\.timeout: `),
    );
    const { session } = await t.call('session.create', { workspacePath: ws, permissionMode: 'full' });
    await runTool(t, session.sessionId, 't1', 'run_shell', { command: 'echo ran > out.txt' });
    expect(readFileSync(path.join(ws, 'out.txt'), 'utf8')).toBe('ran\n');
    // The session's transcript names the broken file too, once.
    const named = (await transcript(t, session.sessionId)).filter((item) => item.data?.hookFileError !== undefined);
    expect(named.map((item) => item.text)).toEqual([`Hooks not run: ${wrongType.errors[0]?.message ?? ''}`]);
  });

  it("an untrusted workspace's .claude/settings.json hook does not run until allowed, and again after it changes", async () => {
    const t = await host();
    const ws = folder();
    const marker = path.join(folder(), 'ran.log');
    const file = path.join(ws, '.claude', 'settings.json');
    hooksFile(file, { PreToolUse: [{ matcher: 'Bash', hooks: [command(`echo ran >> ${marker}`)] }] });
    const { session } = await t.call('session.create', { workspacePath: ws, permissionMode: 'full' });
    const sessionId = session.sessionId;
    await runTool(t, sessionId, 't1', 'run_shell', { command: 'true' });
    expect(existsSync(marker)).toBe(false);

    const listed = await t.call('hooks.list', { sessionId });
    expect(listed.hooks).toMatchObject([{ sourcePath: file, sourceKind: 'workspace', trusted: false }]);
    const waiting = listed.untrusted[0];
    expect(waiting).toMatchObject({ path: file, count: 1 });
    await t.call('hooks.trust', { sessionId, path: file, hash: waiting?.hash ?? '', trusted: true });
    await runTool(t, sessionId, 't2', 'run_shell', { command: 'true' });
    expect(readFileSync(marker, 'utf8')).toBe('ran\n');

    // Changed: asked again, and it does not run meanwhile.
    hooksFile(file, { PreToolUse: [{ matcher: 'Bash', hooks: [command(`echo changed >> ${marker}`)] }] });
    await runTool(t, sessionId, 't3', 'run_shell', { command: 'true' });
    expect(readFileSync(marker, 'utf8')).toBe('ran\n');
    const again = await t.call('hooks.list', { sessionId });
    expect(again.untrusted).toHaveLength(1);
    const stale = await t.invoke('hooks.trust', { sessionId, path: file, hash: waiting?.hash ?? '', trusted: true });
    expect(stale).toMatchObject({ ok: false, error: { code: 'revision_conflict' } });

    // Disabled hooks do not run either.
    await t.call('hooks.trust', { sessionId, path: file, hash: again.untrusted[0]?.hash ?? '', trusted: true });
    await t.call('hooks.setEnabled', { sessionId, hookId: again.hooks[0]?.id ?? '', enabled: false });
    await runTool(t, sessionId, 't4', 'run_shell', { command: 'true' });
    expect(readFileSync(marker, 'utf8')).toBe('ran\n');
  });
});

describe('hooks at a turn’s edges', () => {
  it('a Stop hook that blocks continues the turn with its reason; the second time it sees stop_hook_active', async () => {
    const t = await host();
    const log = path.join(folder(), 'stop.log');
    const stop = script(
      folder(),
      'stop.sh',
      `input=$(cat)\necho "$input" >> ${log}\ncase "$input" in *'"stop_hook_active":true'*) exit 0;; esac\necho "Also run the tests." >&2\nexit 2`,
    );
    hooksFile(path.join(t.dataDir, 'hooks.json'), { Stop: [{ hooks: [command(stop)] }] });
    const { session } = await t.call('session.create', {});
    await t.call('turn.start', { sessionId: session.sessionId, turnId: 't1', text: 'hello' });
    const turn = await t.waitForTurn(session.sessionId, 't1', ['completed', 'failed']);
    expect(turn.status).toBe('completed');
    const lines = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => [line.hook_event_name, line.stop_hook_active])).toEqual([
      ['Stop', false],
      ['Stop', true],
    ]);
    const notices = hookNotices(await transcript(t, session.sessionId));
    expect(notices[0]?.data).toMatchObject({ hookContext: 'Stop hook feedback:\nAlso run the tests.' });
    expect(notices).toHaveLength(2);
    expect(existsSync(String(lines[0]?.transcript_path))).toBe(true);
  });

  it('a Stop hook does not fire when the person presses Stop', async () => {
    const t = await host();
    const log = path.join(folder(), 'stop.log');
    hooksFile(path.join(t.dataDir, 'hooks.json'), { Stop: [{ hooks: [command(`echo stop >> ${log}`)] }] });
    const { session } = await t.call('session.create', {});
    await t.call('turn.start', { sessionId: session.sessionId, turnId: 't1', text: '/stream 50 100' });
    await waitFor(async () =>
      (await transcript(t, session.sessionId)).some((item) => item.kind === 'assistant_message'),
    );
    await t.call('turn.stop', { sessionId: session.sessionId });
    expect((await t.waitForTurn(session.sessionId, 't1', ['cancelled'])).status).toBe('cancelled');
    // A turn that ends by itself afterwards runs it: so the first one would have, had it been going to.
    await t.call('turn.start', { sessionId: session.sessionId, turnId: 't2', text: 'hello' });
    await t.waitForTurn(session.sessionId, 't2', ['completed']);
    expect(readFileSync(log, 'utf8')).toBe('stop\n');
  });

  it('a UserPromptSubmit hook adds context the model receives', async () => {
    const server = await startOpenAIChatServer({ models: ['gpt-4o-mini'] });
    servers.push(server);
    const t = await host();
    hooksFile(path.join(t.dataDir, 'hooks.json'), {
      UserPromptSubmit: [{ hooks: [command('echo "The deploy freeze lasts until Friday."')] }],
    });
    const { connection } = await t.call('connection.create', {
      name: 'Local',
      providerType: 'openai_compatible',
      baseUrl: server.baseUrl,
      apiKey: TEST_API_KEY,
    });
    const { session } = await t.call('session.create', { connectionId: connection.connectionId, model: 'gpt-4o-mini' });
    server.enqueue(textReply('Noted.'));
    await t.call('turn.start', { sessionId: session.sessionId, turnId: 't1', text: 'Can I deploy?' });
    await t.waitForTurn(session.sessionId, 't1', ['completed']);
    const body = (await server.waitForModelCall(0)).body as { messages: Array<{ role: string; content: unknown }> };
    const users = body.messages
      .filter((message) => message.role === 'user')
      .map((message) => JSON.stringify(message.content));
    expect(users.join('\n')).toContain('Can I deploy?');
    expect(users.join('\n')).toContain('The deploy freeze lasts until Friday.');
  });

  it('SessionStart on the first run, Notification when the turn waits for the person, SessionEnd on archive', async () => {
    const t = await host();
    const log = path.join(folder(), 'events.log');
    const logger = script(
      folder(),
      'log.sh',
      `node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const e=JSON.parse(s);console.log([e.hook_event_name,e.source??e.message??e.cairn_reason??""].join(" "))})' >> ${log}`,
    );
    const every = [{ hooks: [command(logger)] }];
    hooksFile(path.join(t.dataDir, 'hooks.json'), { SessionStart: every, Notification: every, SessionEnd: every });
    const ws = folder();
    const { session } = await t.call('session.create', { workspacePath: ws, permissionMode: 'ask' });
    const turn = await runTool(t, session.sessionId, 't1', 'run_shell', { command: 'echo hi' });
    expect(turn.status).toBe('waiting');
    await waitFor(() => existsSync(log) && readFileSync(log, 'utf8').includes('Notification'));
    await t.call('session.archive', { sessionId: session.sessionId, archived: true });
    await waitFor(() => readFileSync(log, 'utf8').includes('SessionEnd'));
    expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual([
      'SessionStart startup',
      'Notification Cairn needs your permission: Run echo hi',
      'SessionEnd archived',
    ]);
    const notices = await waitFor(async () => {
      const found = hookNotices(await transcript(t, session.sessionId));
      return found.length === 3 ? found : null;
    });
    expect(notices.map((notice) => notice.text.split(':')[0])).toEqual([
      'SessionStart hook ran (exit 0)',
      'Notification hook ran (exit 0)',
      'SessionEnd hook ran (exit 0)',
    ]);
  });
});

describe('hooks for an agent that runs its own tools (ACP)', { timeout: 60_000 }, () => {
  it('UserPromptSubmit context reaches the agent with the prompt, PostToolUse sees a reported call, Stop continues the turn', async () => {
    const t = await host();
    const log = path.join(folder(), 'events.log');
    const logger = script(
      folder(),
      'log.sh',
      `node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const e=JSON.parse(s);console.log([e.hook_event_name,e.tool_name??e.prompt??String(e.stop_hook_active)].join(" "))})' >> ${log}`,
    );
    const stop = script(
      folder(),
      'stop.sh',
      `case "$(cat)" in *'"stop_hook_active":true'*) exit 0;; esac\necho "text once more" >&2\nexit 2`,
    );
    hooksFile(path.join(t.dataDir, 'hooks.json'), {
      UserPromptSubmit: [{ hooks: [command(logger), command('echo "text from the hook"')] }],
      PostToolUse: [{ hooks: [command(logger)] }],
      Stop: [{ hooks: [command(stop)] }],
    });
    const { connection } = await t.call('connection.create', {
      name: 'Test agent',
      providerType: 'acp',
      acpAgent: testAgentCommand(folder()),
    });
    const { session } = await t.call('session.create', {
      connectionId: connection.connectionId,
      permissionMode: 'full',
      workspacePath: folder(),
    });
    await t.call('turn.start', { sessionId: session.sessionId, turnId: 't1', text: 'tool t1 Search\ntext hello' });
    const turn = await t.waitForTurn(session.sessionId, 't1', ['completed', 'failed']);
    expect(turn.status).toBe('completed');
    const items = await transcript(t, session.sessionId);
    const said = items
      .filter((item) => item.kind === 'assistant_message')
      .map((item) => item.text)
      .join('');
    // The agent echoes the prompt's lines: the hook's context came with it; the Stop hook's "text once more" ran it again.
    expect(said).toContain('hello');
    expect(said).toContain('from the hook');
    expect(said).toContain('once more');
    // PostToolUse of a reported call runs beside the turn (it can only inform): wait for it.
    const lines = await waitFor(() => {
      const logged = readFileSync(log, 'utf8').trim().split('\n');
      return logged.some((line) => line.startsWith('PostToolUse')) ? logged : null;
    });
    expect(lines).toContain('UserPromptSubmit tool t1 Search');
    expect(lines).toContain('PostToolUse acp.other');
    await waitFor(async () =>
      hookNotices(await transcript(t, session.sessionId)).some((item) => item.text.startsWith('PostToolUse hook ran')),
    );
  });
});
