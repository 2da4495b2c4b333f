import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CairnHost } from '../e2e/cairn-host';

/** Built-in sessions stream at 200 deltas a second (5 ms apart), as the many-agents benchmark does. */
const BUILT_IN_INTERVAL_MS = 5;
/** Codex streams an answer at roughly a token per delta, some 50–70 deltas per second. */
const CODEX_LIKE_INTERVAL_MS = 15;
/** A streaming turn of 10 s, then a turn of tool calls and shell runs. */
const STREAM_CHUNKS = 2_000;
const CHILDREN = 4;
const CHILD_CHUNKS = 20_000;
/** How often a driver looks whether its turn has ended. */
const POLL_MS = 500;
const GOAL_CHECK_MS = 5_000;

/** What the endurance benchmark keeps running: 12 sessions at once, and their counts of work done. */
export interface Workload {
  /** The session the first page shows: the busiest (streams and runs tools without a pause). */
  readonly busiest: string;
  /** The sessions the two other pages show: a Codex-like stream and the goal. */
  readonly others: readonly [string, string];
  readonly turnsDone: () => number;
  /** Why a driver failed (the workload then stopped), or null. */
  readonly failure: () => Error | null;
  /** Stops every driver, the goal, the children and the automation, and waits for the drivers. */
  stop(): Promise<void>;
}

interface Driver {
  readonly sessionId: string;
  readonly label: string;
  /** The text of the driver's n-th turn. */
  readonly turn: (n: number) => string;
}

/**
 * Starts the endurance workload on `host`: five built-in sessions alternating 10 s streams at 200
 * deltas/s with turns of tool calls (a shell run, a write, a read), a sixth that only runs tools, two
 * Codex-like streams, a goal working turn after turn, a parent whose four children stream, an
 * automation firing every minute into its own session, and a quiet session with some history.
 */
export async function startWorkload(host: CairnHost, workspace: string): Promise<Workload> {
  seedWorkspace(workspace);
  const create = async (title: string) =>
    (await host.call('session.create', { title, workspacePath: workspace, permissionMode: 'full' })).session.sessionId;
  const toolTurn = (label: string, n: number) =>
    `/tools ${JSON.stringify([
      ['run_shell', { command: `ls -la && git status --short | head -5 && echo ${label}-${n}` }],
      ['write_file', { path: `notes/${label}.md`, content: `# ${label}\n\nTurn ${n}: ${'text '.repeat(40)}\n` }],
      ['read_file', { path: 'README.md' }],
    ])}`;
  const drivers: Driver[] = [];
  for (let index = 1; index <= 5; index += 1) {
    const label = `built-in-${index}`;
    drivers.push({
      sessionId: await create(`Built-in ${index}`),
      label,
      turn: (n) => (n % 2 === 1 ? `/stream ${STREAM_CHUNKS} ${BUILT_IN_INTERVAL_MS} markdown` : toolTurn(label, n)),
    });
  }
  drivers.push({ sessionId: await create('Tools only'), label: 'tools', turn: (n) => toolTurn('tools', n) });
  for (let index = 1; index <= 2; index += 1)
    drivers.push({
      sessionId: await create(`Codex-like ${index}`),
      label: `codex-like-${index}`,
      turn: () => `/stream ${STREAM_CHUNKS} ${CODEX_LIKE_INTERVAL_MS}`,
    });

  const goalSession = await create('Goal');
  const armGoal = async () =>
    (
      await host.call('goal.arm', {
        sessionId: goalSession,
        objective: 'Keep the notes tidy, turn after turn',
        tokenBudget: 100_000_000,
        maxIterations: 1_000,
      })
    ).goal;
  await armGoal();
  const parent = await create('Parent of four');
  const automationSession = await create('Automation target');
  await host.call('schedule.create', {
    taskId: 'endurance-every-minute',
    title: 'Every minute',
    prompt: `/stream 200 ${BUILT_IN_INTERVAL_MS}`,
    target: { kind: 'session', sessionId: automationSession },
    schedule: { kind: 'every', minutes: 1 },
    timeZone: 'UTC',
    effect: 'turn',
  });
  const quiet = await create('Quiet, with history');
  await runTurn(host, quiet, 'history-1', '/stream 50 1');

  let stopping = false;
  let turnsDone = 0;
  let failure: Error | null = null;
  /** A driver that fails stops the workload; the benchmark reads why and ends with it (its host stopped). */
  const guarded = (work: Promise<void>) =>
    work.catch((error: unknown) => {
      failure ??= error instanceof Error ? error : new Error(String(error));
      stopping = true;
    });
  const loops = drivers.map((driver) =>
    guarded(
      (async () => {
        for (let n = 1; !stopping; n += 1) {
          await runTurn(host, driver.sessionId, `${driver.label}-${n}`, driver.turn(n), () => stopping);
          turnsDone += 1;
        }
      })(),
    ),
  );
  const children = guarded(
    (async () => {
      for (let round = 1; !stopping; round += 1) {
        const turnId = `spawn-${round}`;
        await runTurn(
          host,
          parent,
          turnId,
          `/spawn-many ${CHILDREN} worker ${JSON.stringify(`/stream ${CHILD_CHUNKS} ${BUILT_IN_INTERVAL_MS}`)} wait`,
          () => stopping,
        );
        turnsDone += 1;
      }
    })(),
  );

  // A goal stops at its iteration limit (1,000 turns): armed again, so one works throughout.
  const goals = guarded(
    (async () => {
      while (!stopping) {
        await new Promise((resolveWait) => setTimeout(resolveWait, GOAL_CHECK_MS));
        const { goal } = await host.call('goal.get', { sessionId: goalSession });
        if (stopping || goal?.status === 'active') continue;
        // A goal that reached its limit is cleared first: a session holds one goal at a time.
        if (goal !== null)
          await host.call('goal.control', {
            sessionId: goalSession,
            goalId: goal.goalId,
            expectedRevision: goal.revision,
            action: 'clear',
          });
        await armGoal();
      }
    })(),
  );

  return {
    busiest: drivers[0]?.sessionId ?? '',
    others: [drivers[6]?.sessionId ?? '', goalSession],
    turnsDone: () => turnsDone,
    failure: () => failure,
    async stop() {
      stopping = true;
      await host.call('schedule.remove', { taskId: 'endurance-every-minute' });
      await goals;
      // The goal moves on between reading it and pausing it (a turn ends: a new revision): read it again.
      for (let attempt = 1; ; attempt += 1) {
        const { goal } = await host.call('goal.get', { sessionId: goalSession });
        if (goal === null || goal.status !== 'active') break;
        try {
          await host.call('goal.control', {
            sessionId: goalSession,
            goalId: goal.goalId,
            expectedRevision: goal.revision,
            action: 'pause',
          });
          break;
        } catch (error) {
          if (attempt >= 10 || !String(error).includes('revision_conflict')) throw error;
        }
      }
      await host.call('agent.stop', { rootSessionId: parent });
      await Promise.all([...loops, children]);
    },
  };
}

/** Starts a turn and waits (polling, off the measured paths) until it has ended; `stopNow` stops it early. */
async function runTurn(
  host: CairnHost,
  sessionId: string,
  turnId: string,
  text: string,
  stopNow: () => boolean = () => false,
): Promise<void> {
  const started = await host.call('turn.start', { sessionId, turnId, text });
  const id = started.turn.turnId;
  for (;;) {
    const { turn } = await host.call('turn.query', { sessionId, turnId: id });
    if (turn.status !== 'running') return;
    if (stopNow()) {
      await host.call('turn.stop', { sessionId, turnId: id });
      stopNow = () => false;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** A small repository for the sessions to work in: a README, some sources, git. */
function seedWorkspace(workspace: string): void {
  mkdirSync(join(workspace, 'src'), { recursive: true });
  mkdirSync(join(workspace, 'notes'), { recursive: true });
  writeFileSync(join(workspace, 'README.md'), `# Endurance\n\n${'A line of the readme.\n'.repeat(50)}`);
  for (let index = 0; index < 50; index += 1)
    writeFileSync(join(workspace, 'src', `file-${index}.ts`), `export const value${index} = ${index};\n`);
}
