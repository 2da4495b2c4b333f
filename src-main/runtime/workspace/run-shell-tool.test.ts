import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../storage/migrations';
import { openDatabase, type Db } from '../../storage/database';
import { createShellRunStore, type ShellRunStore } from '../../storage/shell-run-store';
import { outcome, tempWorkspace, toolContext } from '../../testing/workspace-fixture';
import { systemClock } from '../ports/ports';
import { createShellRunner, type ShellOutputChunk, type ShellRunner } from '../shell/shell-runner';
import type { ToolContext } from '../contract/agent-tool';
import { createRunShellTool, previewChange, type RunShellToolOptions } from './run-shell-tool';
import { createWorkspaceTools } from './workspace-tools';

describe('run_shell', () => {
  let ws: ReturnType<typeof tempWorkspace>;
  let db: Db;
  let store: ShellRunStore;
  let runner: ShellRunner;
  let counter = 0;
  const tool = (extra: Partial<RunShellToolOptions> = {}) => createRunShellTool({ root: ws.root, runner, ...extra });
  const run = async (input: unknown, extra: Partial<RunShellToolOptions> = {}, context: ToolContext = toolContext()) =>
    outcome(await tool(extra).execute(input, context));

  beforeEach(() => {
    ws = tempWorkspace();
    db = openDatabase(path.join(ws.base, 'data'), {
      migrations: MIGRATIONS,
    });
    db.prepare(
      "INSERT INTO sessions (session_id, title, title_source, connection_id, permission_mode, revision, created_at, updated_at) VALUES ('s1', 'T', 'user', 'c', 'ask', 1, 0, 0)",
    ).run();
    store = createShellRunStore(db);
    runner = createShellRunner({ store, clock: systemClock, newShellRunId: () => `sh-${++counter}` });
  });
  afterEach(async () => {
    await runner.killAll();
    db.close();
    ws.cleanup();
  });

  it('runs in the workspace and returns the exit code and output; the run is on record', async () => {
    const { output, isError } = await run({ command: 'pwd; echo problem >&2' });
    expect(isError).toBe(false);
    expect(output).toEqual({
      shellRunId: expect.any(String),
      status: 'exited',
      exitCode: 0,
      stdout: `${ws.root}\n`,
      stderr: 'problem\n',
      durationMs: expect.any(Number),
    });
    expect(store.get(String(output.shellRunId))).toMatchObject({
      status: 'exited',
      sessionId: 's1',
      turnId: 't1',
      runId: 'r1',
      cwd: ws.root,
      toolCallId: null,
    });
  });

  it('marks a non-zero exit as an error result, keeping the output', async () => {
    const { output, isError } = await run({ command: 'echo before; exit 7' });
    expect(isError).toBe(true);
    expect(output).toMatchObject({ status: 'exited', exitCode: 7, stdout: 'before\n' });
  });

  it('stops a command at its timeout and says how to allow longer', async () => {
    const { output, isError } = await run({ command: 'sleep 30', timeoutSeconds: 1 });
    expect(isError).toBe(true);
    expect(output).toMatchObject({ status: 'timed_out', exitCode: null, signal: 'SIGTERM' });
    expect(output.note).toMatch(
      /ran longer than 1 s and was stopped, with everything it started\. If it needs longer, pass timeoutSeconds \(at most 600\)/,
    );
  });

  it('bounds each stream in the result and flags the cut', async () => {
    const { output } = await run({ command: 'seq 1 1000; seq 1 10 >&2' }, { resultTailChars: 20 });
    expect(output.stdout).toBe('\n994\n995\n996\n997\n998\n999\n1000\n'.slice(-20));
    expect(output).toMatchObject({ stdoutTruncated: true, stderr: '1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n'.slice(-20) });
    expect(output.note).toMatch(/stdout was longer than shown; this is its last part\./);
  });

  it('streams live output and announces the start, with the tool context', async () => {
    const chunks: ShellOutputChunk[] = [];
    const starts: string[] = [];
    const context = { ...toolContext(), toolCallId: 'call-9' };
    const { output } = await run(
      { command: 'echo one; echo two' },
      {
        onOutput: (chunk, ctx) => chunks.push({ ...chunk, shellRunId: `${chunk.shellRunId}@${ctx.runId}` }),
        onStart: (record) => starts.push(record.status),
      },
      context,
    );
    expect(chunks.map((chunk) => chunk.text).join('')).toBe('one\ntwo\n');
    expect(chunks.every((chunk) => chunk.shellRunId === `${String(output.shellRunId)}@r1`)).toBe(true);
    expect(starts).toEqual(['running']);
    expect(store.get(String(output.shellRunId))?.toolCallId).toBe('call-9');
  });

  it('is killed when the turn is stopped (the context signal aborts)', async () => {
    const controller = new AbortController();
    const { output, isError } = await run(
      { command: 'sleep 30' },
      { onStart: () => controller.abort() },
      toolContext({ signal: controller.signal }),
    );
    expect(isError).toBe(true);
    expect(output).toMatchObject({ status: 'killed', note: 'The command was stopped before it finished.' });
  });

  it('previews the command and the real folder it will run in', async () => {
    const link = path.join(ws.base, 'link');
    symlinkSync(ws.root, link);
    expect(await previewChange(link, { command: 'npm test' })).toEqual({
      kind: 'command',
      command: 'npm test',
      cwd: ws.root,
    });
    expect(await tool().preview?.({ command: 'ls', timeoutSeconds: 5 })).toEqual({
      kind: 'command',
      command: 'ls',
      cwd: ws.root,
    });
    expect(await previewChange(ws.root, { command: '' })).toMatchObject({
      kind: 'invalid',
      message: expect.stringMatching(/"command": must not be empty/),
    });
  });

  it('answers bad input with an error, never a throw', async () => {
    expect((await run({})).output.error).toMatch(/The input to run_shell is not valid: "command"/);
    expect((await run({ command: 'ls', timeoutSeconds: 0 })).output.error).toMatch(/"timeoutSeconds"/);
    expect((await run({ command: 'ls', timeoutSeconds: 601 })).output.error).toMatch(/"timeoutSeconds"/);
    expect((await run({ command: 'ls', cwd: '/' })).output.error).toMatch(/Unrecognized key.*cwd/);
    expect(
      (await createRunShellTool({ root: path.join(ws.base, 'gone'), runner }).execute(
        { command: 'ls' },
        toolContext(),
      )) as unknown,
    ).toMatchObject({
      isError: true,
      output: { error: expect.stringMatching(/cannot be opened/) },
    });
  });

  it('is one of the workspace tools, which mark what changes things', () => {
    const tools = createWorkspaceTools({ root: ws.root, shell: { runner } });
    expect(tools.map((candidate) => [candidate.name, candidate.readOnly, candidate.preview !== undefined])).toEqual([
      ['read_file', true, false],
      ['list_files', true, false],
      ['glob', true, false],
      ['grep', true, false],
      ['write_file', false, true],
      ['edit_file', false, true],
      ['run_shell', false, true],
    ]);
    expect(createWorkspaceTools({ root: ws.root }).map((candidate) => candidate.name)).not.toContain('run_shell');
  });
});
