import { startServeProcess, type ServeProcess } from '../../src-main/testing/serve-process';
import { AckLog, type AckCategory } from './acknowledged';
import { checkOrphans, survivors } from './orphan-check';
import { killChildrenMatching } from './processes';
import { checkRecord, stuckRuns, type Loss } from './record-check';
import { readRecord } from './record-reader';
import type { Rng } from './rng';
import { planCycle, runScenario, SCENARIOS } from './scenarios';
import { settle, type SettleResult } from './settle';
import { connectSoakClient } from './soak-client';

/** What every cycle shares: where the host keeps its data, how to reach it, and the time limits. */
export interface CycleEnv {
  readonly dataDir: string;
  readonly workspace: string;
  readonly token: string;
  /** Unique to this soak run; every shell command carries it. */
  readonly runTag: string;
  readonly rng: Rng;
  readonly limits: CycleLimits;
}

export interface CycleLimits {
  /** How long a restarted host may take to end (or record) the processes the dead one left. */
  readonly orphanWaitMs: number;
  /** How long the sessions of a cycle may take to come to rest after the restart. */
  readonly settleTimeoutMs: number;
  readonly goalStallMs: number;
  readonly pollMs: number;
}

export interface CycleResult {
  readonly killAfterMs: number;
  /** The whole cycle: work, kill, restart, checks, settling. */
  readonly cycleMs: number;
  readonly checked: Record<AckCategory, number>;
  readonly lost: readonly Loss[];
  readonly stuck: readonly string[];
  /** Process groups of the cycle's commands alive after the kill. */
  readonly processesSurvived: number;
  readonly unseen: readonly string[];
  readonly settle: SettleResult;
  /** Starts refused (the data directory still locked) before the restart succeeded. */
  readonly restartRefusals: number;
  /** Set when the host was gone before the soak killed it. */
  readonly hostEndedEarly: string | null;
}

const RESTART_ATTEMPTS = 5;
const RESTART_RETRY_MS = 200;
/** A host is ready in about a second (several on a busy machine); this only bounds one that hangs. */
const READY_TIMEOUT_MS = 60_000;

/** Starts the host on the data directory; a refusal because the directory is still locked is retried and counted. */
export async function startHost(
  env: Pick<CycleEnv, 'dataDir' | 'token'>,
): Promise<{ host: ServeProcess; refusals: number }> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return { host: await startReady(env), refusals: attempt - 1 };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (attempt >= RESTART_ATTEMPTS || !/already in use/i.test(message)) throw error;
      await new Promise((resolve) => setTimeout(resolve, RESTART_RETRY_MS));
    }
  }
}

async function startReady(env: Pick<CycleEnv, 'dataDir' | 'token'>): Promise<ServeProcess> {
  const starting = startServeProcess({ dataDir: env.dataDir, token: env.token });
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), READY_TIMEOUT_MS)));
  const host = await Promise.race([starting, late]);
  clearTimeout(timer);
  if (host !== null) return host;
  starting.catch(() => {}); // it rejects once the child below is gone
  killChildrenMatching(`--data-dir=${env.dataDir}`);
  throw new Error(`The host did not become ready within ${READY_TIMEOUT_MS / 1000} s`);
}

/**
 * One kill cycle: put every scenario under way on `host`, SIGKILL it at the planned moment, restart
 * it on the same data directory, check the record against what was acknowledged, look for processes
 * left alive unseen, then carry the cycle's sessions to rest. Returns the restarted host.
 */
export async function runCycle(
  env: CycleEnv,
  host: ServeProcess,
  cycle: number,
): Promise<{ host: ServeProcess; result: CycleResult }> {
  const startedAt = Date.now();
  const plan = planCycle(env.rng);
  const marker = `${env.runTag}-c${cycle}`;
  const ack = new AckLog();
  const client = await connectSoakClient(host.wsUrl, env.token);
  const scenarios = SCENARIOS.map((name) =>
    runScenario(name, { client, ack, plan, cycle, marker, workspace: env.workspace }),
  );

  const aliveAtKill = await client.pause(plan.killAfterMs);
  const hostEndedEarly = aliveAtKill
    ? null
    : `the host was gone before the kill (exit ${String(host.child.exitCode ?? host.child.signalCode)}):\n${host.output().slice(-2000)}`;
  host.child.kill('SIGKILL');
  await host.exited;
  await client.closed;
  await Promise.all(scenarios);
  for (const event of client.events) ack.addEvent(event);
  const alive = survivors(marker);

  const restartedAt = Date.now();
  const restarted = await startHost(env);
  const after = await connectSoakClient(restarted.host.wsUrl, env.token);
  try {
    const record = await readRecord(after, ack.sessionIds());
    const { checked, lost } = checkRecord(ack, record);
    const stuck = stuckRuns(record, restartedAt);
    const sessionIds = [...record.sessions];
    // Both at once: the survivors were found before the restart, so a command a resumed turn runs
    // again is not among them.
    const [orphans, settled] = await Promise.all([
      checkOrphans({
        client: after,
        marker,
        survivors: alive,
        sessionIds,
        restartedAt,
        waitMs: env.limits.orphanWaitMs,
        pollMs: env.limits.pollMs,
      }),
      settle({
        client: after,
        sessionIds,
        interruptedTurns: [...record.turns.values()].filter((turn) => turn.status === 'interrupted'),
        pendingQuestions: [...record.interactions.values()].filter((interaction) => interaction.status === 'pending'),
        timeoutMs: env.limits.settleTimeoutMs,
        goalStallMs: env.limits.goalStallMs,
        pollMs: env.limits.pollMs,
      }),
    ]);
    const result: CycleResult = {
      killAfterMs: plan.killAfterMs,
      cycleMs: Date.now() - startedAt,
      checked,
      lost,
      stuck,
      processesSurvived: orphans.survived,
      unseen: orphans.unseen,
      settle: settled,
      restartRefusals: restarted.refusals,
      hostEndedEarly,
    };
    return { host: restarted.host, result };
  } catch (error) {
    restarted.host.child.kill('SIGKILL');
    await restarted.host.exited;
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`${message}\nThe restarted host's output:\n${restarted.host.output().slice(-3000)}`, {
      cause: error,
    });
  } finally {
    await after.close();
  }
}
