import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../contract/agent-backend';
import { createCodexStore, type CodexStore } from '../../../storage/codex-store';
import { openDatabase, type Db } from '../../../storage/database';
import { tempDataDir } from '../../../testing/host-fixture';
import { waitFor } from '../../../testing/wait-for';
import type { AgentCommandEnd, AgentCommandLog, AgentCommandStart } from '../../shell/agent-commands';
import { divertCommandReports } from './app-server-start';
import { BackgroundCommands } from './background-commands';
import type { CodexBackendDeps } from './codex-backend-deps';
import { followTurn } from './codex-runs';
import type { CodexContext, RunRef, SessionState } from './codex-session-state';
import { CommandOutput } from './command-output';
import { EndedTurnCommands } from './ended-turn-commands';
import { DEFAULT_BOUNDS, LiveAppServer } from './live-app-server';
import { createTurnReader } from './turn-reader';

/*
 * What `codex app-server` (0.171.0) said in a turn of two sandboxed commands (Auto, in the sandbox
 * test), trimmed to the turn's item and turn notifications. Codex reports a command's end from a task
 * of its own once its output is drained (unified exec's exit watcher), so under load that end, and
 * the output before it, can come after `turn/completed`: `LATE` marks where the second command's
 * notifications were moved to, as they arrived in the failing runs (the model had its result; Cairn's
 * record had not, or never got, the command).
 */
const THREAD = '01a25116-60a8-7ba1-a01a-cfd70c2c99a7';
const TURN = '01a25116-60cb-7781-8788-074c8dd81d9e';
const CWD = '/tmp/cairn-codex-sandbox-XvSuIp/work';
const STEP_0 = "/bin/bash -lc ': step-0; echo made-inside > inside.txt'";
const STEP_1 = "/bin/bash -lc ': step-1; echo escaped > /var/tmp/cairn-codex-sandbox-0DH275/escape.txt 2>&1'";
const REHASH = "pyenv: cannot rehash: /root/.pyenv/shims isn't writable\n";
const READ_ONLY = '/bin/bash: line 1: /var/tmp/cairn-codex-sandbox-0DH275/escape.txt: Read-only file system\n';

const commandItem = (
  id: string,
  command: string,
  pid: string,
  ending: { status: string; aggregatedOutput: string | null; exitCode: number | null; durationMs: number | null },
) => ({
  type: 'commandExecution',
  id,
  pluginId: null,
  scriptPath: null,
  command,
  cwd: CWD,
  processId: pid,
  source: 'unifiedExecStartup',
  commandActions: [{ type: 'unknown', command: command.slice(14, -1) }],
  startedAtMs: 1796656751314,
  completedAtMs: ending.durationMs === null ? null : 1796656751811,
  ...ending,
});
const RUNNING = { status: 'inProgress', aggregatedOutput: null, exitCode: null, durationMs: null };
const item = (method: string, value: object) => ({ method, params: { item: value, threadId: THREAD, turnId: TURN } });
const delta = (itemId: string, text: string) => ({
  method: 'item/commandExecution/outputDelta',
  params: { threadId: THREAD, turnId: TURN, itemId, delta: text },
});
const turn = (method: string, status: string) => ({
  method,
  params: { threadId: THREAD, turn: { id: TURN, rootTurnId: TURN, items: [], status, error: null } },
});

const LATE = 'late';
const CAPTURED: readonly (object | typeof LATE)[] = [
  turn('turn/started', 'inProgress'),
  item('item/started', { type: 'userMessage', id: 'u1', content: [{ type: 'text', text: 'Run the commands' }] }),
  item('item/completed', { type: 'userMessage', id: 'u1', content: [{ type: 'text', text: 'Run the commands' }] }),
  item('item/started', commandItem('call_0', STEP_0, '66256', RUNNING)),
  delta('call_0', REHASH),
  item(
    'item/completed',
    commandItem('call_0', STEP_0, '66256', {
      status: 'completed',
      aggregatedOutput: REHASH,
      exitCode: 0,
      durationMs: 495,
    }),
  ),
  item('item/started', commandItem('call_1', STEP_1, '55948', RUNNING)),
  item('item/started', { type: 'agentMessage', id: 'msg_0', text: '' }),
  item('item/completed', { type: 'agentMessage', id: 'msg_0', text: 'Done.' }),
  turn('turn/completed', 'completed'),
  LATE,
  delta('call_1', REHASH),
  delta('call_1', READ_ONLY),
  item(
    'item/completed',
    commandItem('call_1', STEP_1, '55948', {
      status: 'failed',
      aggregatedOutput: `${REHASH}${READ_ONLY}`,
      exitCode: 1,
      durationMs: 317,
    }),
  ),
];

/** What the replay says once it has written every line. */
const REPLAY_DONE = 'replay/done';

/**
 * A stand-in for `codex app-server` on the transport only: it writes the captured lines, those after
 * `LATE` at once or when it reads a line (after the turn was read to its end), and lives until its
 * stdin closes.
 */
const REPLAY = `
const [early, late] = JSON.parse(process.env.REPLAY_LINES);
const write = (lines) => { for (const line of lines) process.stdout.write(line + '\\n'); };
write(early);
if (process.env.REPLAY_LATE === 'at-once') write([...late, JSON.stringify({ method: '${REPLAY_DONE}', params: {} })]);
process.stdin.setEncoding('utf8');
process.stdin.on('data', () => write(late));
process.stdin.on('end', () => process.exit(0));
`;

/** The shell-run record as the backend writes it: each begin, output and end, in order. */
function recordingLog() {
  const runs: (AgentCommandStart & { shellRunId: string; output: string; ending: AgentCommandEnd | null })[] = [];
  const log: AgentCommandLog = {
    begin(start) {
      const shellRunId = `sr${runs.length + 1}`;
      runs.push({ ...start, shellRunId, output: '', ending: null });
      return shellRunId;
    },
    output(shellRunId, text) {
      const run = runs.find((each) => each.shellRunId === shellRunId);
      if (run !== undefined && run.ending === null) run.output += text;
    },
    end(shellRunId, ending) {
      const run = runs.find((each) => each.shellRunId === shellRunId);
      if (run !== undefined && run.ending === null) run.ending = ending;
    },
    stoppable() {},
    stop: () => Promise.resolve(null),
  };
  return { log, runs };
}

const RUN: RunRef = { sessionId: 's1', turnId: 't1', runId: 'r1' };

describe('Codex commands whose end arrives after their turn ended', () => {
  let db: Db;
  let store: CodexStore;
  let cleanup: () => void;
  let live: LiveAppServer | null = null;

  beforeEach(() => {
    const temp = tempDataDir();
    cleanup = temp.cleanup;
    db = openDatabase(temp.dir);
    store = createCodexStore(db);
  });
  afterEach(async () => {
    await live?.process.terminate(500, 2000);
    live = null;
    db.close();
    cleanup();
  });

  /** The captured turn read as a run reads it, on a session whose app-server is the replay. */
  async function readCapturedTurn(late: 'at-once' | 'after the turn', unasked: boolean) {
    const split = CAPTURED.indexOf(LATE);
    const lines = [CAPTURED.slice(0, split), CAPTURED.slice(split + 1)].map((part) =>
      part.map((message) => JSON.stringify(message)),
    );
    live = new LiveAppServer(
      'instance-1',
      {
        binary: process.execPath,
        args: ['-e', REPLAY],
        env: { REPLAY_LINES: JSON.stringify(lines), REPLAY_LATE: late },
        cwd: process.cwd(),
      },
      'key',
    );
    store.bind(RUN.sessionId, { threadId: THREAD, instanceId: live.instanceId, codexVersion: '0.171.0' }, 1);
    const { log, runs } = recordingLog();
    const warnings: string[] = [];
    const deps = {
      commands: log,
      logger: { info() {}, warn: (message: string) => warnings.push(message), error() {} },
      now: () => 2,
      onContextMeter() {},
      onGoalUpdate() {},
    } satisfies Partial<CodexBackendDeps>;
    const ctx = {
      deps: deps as unknown as CodexBackendDeps,
      codexStore: store,
      bounds: DEFAULT_BOUNDS,
      states: new Map<string, SessionState>(),
      closed: false,
      retire: () => Promise.resolve(),
    } as unknown as CodexContext;
    const background = new BackgroundCommands(log, store, DEFAULT_BOUNDS, () => 0);
    const endedTurns = new EndedTurnCommands(store);
    const appServer = live;
    divertCommandReports(
      appServer,
      (seq) => store.claim(RUN.sessionId, appServer.instanceId, seq),
      background,
      endedTurns,
    );
    const state: SessionState = {
      live: appServer,
      model: 'gpt-5.5',
      run: null,
      mapper: null,
      commands: null,
      processes: null,
      background,
      endedTurns,
      pending: null,
      goalId: null,
      structured: false,
    };
    if (late === 'at-once') {
      // Every line is queued before the turn is read: the late ones wait behind turn/completed.
      const queued = [];
      for (;;) {
        const next = await appServer.next(AbortSignal.timeout(10_000));
        if (next === null || (next.kind === 'notification' && next.value.method === REPLAY_DONE)) break;
        queued.push(next);
      }
      for (const message of queued.reverse()) appServer.putBack(message);
    }
    followTurn(ctx, state, RUN, TURN, 'gpt-5.5', unasked);
    const events: AgentEvent[] = [];
    for await (const event of createTurnReader(ctx)(RUN.sessionId, state, new AbortController().signal))
      events.push(event);
    if (late === 'after the turn') appServer.process.send('go');
    return { runs, warnings, events };
  }

  it('Codex asks no approvals (Full), every line queued: the late end is applied to the turn’s command, once', async () => {
    const { runs } = await readCapturedTurn('at-once', true);
    const ended = await waitFor(() => (runs.every((run) => run.ending !== null) ? runs : null), {
      timeoutMs: 5_000,
      message: 'both commands to end in the record',
    });
    expect(ended.map((run) => [run.toolCallId, run.command, run.ending?.exitCode])).toEqual([
      ['call_0', STEP_0, 0],
      ['call_1', STEP_1, 1],
    ]);
    expect(
      ended.every((run) => run.sessionId === RUN.sessionId && run.turnId === RUN.turnId && run.runId === RUN.runId),
    ).toBe(true);
    expect(ended[1]).toMatchObject({ output: `${REHASH}${READ_ONLY}`, ending: { status: 'exited', exitCode: 1 } });
    expect(store.turnResults(RUN.sessionId, RUN.turnId)[0]?.commands).toEqual([
      { command: STEP_0, exitCode: 0, status: 'completed' },
      { command: STEP_1, exitCode: 1, status: 'failed' },
    ]);
  });

  it('Auto, a command that had not printed when the turn ended: recorded at the turn’s end, its late output and end applied once', async () => {
    const { runs, events } = await readCapturedTurn('after the turn', false);
    // The transcript shows its call too (its result comes after the run ended, in the shell run).
    expect(events.filter((event) => event.type === 'tool_call').map((event) => event.toolCallId)).toEqual([
      'call_0',
      'call_1',
    ]);
    const ended = await waitFor(() => (runs.length === 2 && runs.every((run) => run.ending !== null) ? runs : null), {
      timeoutMs: 5_000,
      message: 'both commands to end in the record',
    });
    expect(ended.map((run) => [run.toolCallId, run.turnId, run.ending?.exitCode])).toEqual([
      ['call_0', RUN.turnId, 0],
      ['call_1', RUN.turnId, 1],
    ]);
    expect(ended[1]?.ending).toMatchObject({ status: 'exited', output: `${REHASH}${READ_ONLY}` });
    expect(store.turnResults(RUN.sessionId, RUN.turnId)[0]?.commands).toEqual([
      { command: STEP_0, exitCode: 0, status: 'completed' },
      { command: STEP_1, exitCode: 1, status: 'failed' },
    ]);
  });
});

describe('a Codex turn’s commands, whatever the order and shape Codex reports them in', () => {
  function commandsOf(atStart: boolean) {
    const { log, runs } = recordingLog();
    const warnings: { message: string; fields: Record<string, unknown> }[] = [];
    const commands = new CommandOutput({
      log,
      runOf: () => RUN,
      codexTurnId: TURN,
      itemOf: () => null,
      atStart,
      warn: (message, fields) => warnings.push({ message, fields }),
    });
    return { commands, runs, warnings };
  }
  const done = (id: string, command: string) =>
    item(
      'item/completed',
      commandItem(id, command, '1', { status: 'completed', aggregatedOutput: 'ok\n', exitCode: 0, durationMs: 5 }),
    ).params;

  it('an end before its start, an end told twice, output after the end: one record each', () => {
    const { commands, runs } = commandsOf(true);
    commands.observe('item/completed', done('call_0', STEP_0));
    commands.observe('item/started', item('item/started', commandItem('call_0', STEP_0, '1', RUNNING)).params);
    commands.observe('item/completed', done('call_0', STEP_0));
    commands.observe('item/commandExecution/outputDelta', delta('call_0', 'late\n').params);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ toolCallId: 'call_0', ending: { exitCode: 0, output: 'ok\n' } });
  });

  it('a command item in a shape Cairn does not know is recorded with what it says, and logged', () => {
    const { commands, runs, warnings } = commandsOf(false);
    const odd = {
      type: 'commandExecution',
      id: 'call_9',
      command: ['bash', '-lc', 'ls'],
      status: 'completed',
      exitCode: 0,
    };
    commands.observe('item/completed', { turnId: TURN, item: odd });
    expect(runs).toEqual([
      expect.objectContaining({
        toolCallId: 'call_9',
        command: 'bash -lc ls',
        cwd: '',
        ending: expect.objectContaining({ exitCode: 0 }) as unknown,
      }),
    ]);
    expect(warnings[0]?.message).toMatch(/shape Cairn does not know/);
    expect(String(warnings[0]?.fields.unread)).toMatch(/command/);
  });

  it('a command notification that cannot be read at all is logged, not silently dropped', () => {
    const { commands, runs, warnings } = commandsOf(true);
    commands.observe('item/completed', { item: { type: 'commandExecution', id: 'call_2' } });
    commands.observe('item/commandExecution/outputDelta', { itemId: 'call_2' });
    expect(runs).toHaveLength(0);
    expect(warnings.map((warning) => warning.message)).toEqual([
      'Codex sent an item Cairn could not read',
      'Codex sent command output Cairn could not read',
    ]);
  });

  it('a command Codex declined never ran: no record', () => {
    const { commands, runs } = commandsOf(false);
    commands.observe('item/started', item('item/started', commandItem('call_3', STEP_0, '1', RUNNING)).params);
    commands.observe(
      'item/completed',
      item('item/completed', commandItem('call_3', STEP_0, '1', { ...RUNNING, status: 'declined' })).params,
    );
    expect(commands.detach()).toEqual([]);
    expect(runs).toHaveLength(0);
  });
});
