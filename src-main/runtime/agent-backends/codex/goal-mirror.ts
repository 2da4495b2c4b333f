import { z } from 'zod';
import type { GoalRecord } from '../../../../src-shared/goal-model';
import type { GoalChanges } from '../../../storage/goal-store';
import type { ServerNotification } from '../agent-process/json-rpc-client';
import { turnStartedSchema } from './codex-protocol';
import type { CodexBounds, LiveAppServer } from './live-app-server';

/** The Cairn goal a goal turn works toward, as Codex is told it. */
export interface MirroredGoal {
  readonly goalId: string;
  readonly objective: string;
  readonly tokenBudget: number | null;
}

/** What Codex says about its thread goal, as Cairn records it. */
export interface CodexGoalUpdate {
  readonly status: 'active' | 'paused' | 'blocked' | 'usageLimited' | 'budgetLimited' | 'complete';
  readonly tokensUsed: number;
  readonly timeUsedSeconds: number;
}

const goalUpdatedSchema = z
  .object({
    goal: z
      .object({
        status: z.enum(['active', 'paused', 'blocked', 'usageLimited', 'budgetLimited', 'complete']),
        tokensUsed: z.number(),
        timeUsedSeconds: z.number(),
      })
      .passthrough(),
  })
  .passthrough();

/**
 * Goals on a Codex session. Cairn's goal driver decides when the next goal turn runs (with Cairn's
 * limits, Stop and visibility), and Codex runs it as its own continuation turn: the thread goal is
 * set `active`, Codex starts the turn itself with its own goal prompt, and the goal is set `paused`
 * as soon as that turn has started, so Codex never chains a turn Cairn did not ask for
 * (`continueThreadGoal`). `thread/goal/updated` is mirrored back (`goalChangesFor`), and clearing
 * Cairn's goal clears the thread goal.
 *
 * Measured with codex 0.171: Codex adds a goal turn's tokens (uncached input + output) and seconds
 * to its thread goal only while the goal is `active`; paused at the turn's start, its counters stay
 * where they were. So a goal's tokens and time are Cairn's own accounting of each goal run (its
 * usage, its wall time), and Codex's figures, when higher, raise them.
 */
export async function setThreadGoal(
  live: LiveAppServer,
  goal: MirroredGoal,
  status: 'active' | 'paused',
  boundMs: number,
): Promise<void> {
  await live.rpc.request(
    'thread/goal/set',
    {
      threadId: live.threadId,
      origin: 'user',
      objective: goal.objective,
      status,
      ...(goal.tokenBudget === null ? {} : { tokenBudget: goal.tokenBudget }),
    },
    boundMs,
  );
}

export async function pauseThreadGoal(live: LiveAppServer, boundMs: number): Promise<void> {
  await live.rpc.request('thread/goal/set', { threadId: live.threadId, status: 'paused' }, boundMs);
}

/**
 * Runs the next goal turn as Codex's own continuation turn: sets the thread goal active, waits
 * (bounded) for the `turn/started` Codex sends for its continuation, and pauses the goal again at
 * once. Every notification read meanwhile goes to `seen`. Returns the Codex turn id, or null when
 * Codex started no turn in time (or `signal` aborted): the goal is paused then, and the caller
 * starts the turn itself.
 */
export async function continueThreadGoal(
  live: LiveAppServer,
  goal: MirroredGoal,
  signal: AbortSignal,
  bounds: Pick<CodexBounds, 'requestMs' | 'continuationMs'>,
  seen: (notification: ServerNotification) => void,
): Promise<string | null> {
  await setThreadGoal(live, goal, 'active', bounds.requestMs);
  const turnId = await awaitTurnStarted(
    live,
    AbortSignal.any([signal, AbortSignal.timeout(bounds.continuationMs)]),
    seen,
  );
  await pauseThreadGoal(live, bounds.requestMs);
  // A continuation that started while the goal was being paused is still this goal turn.
  return turnId ?? (await awaitTurnStarted(live, AbortSignal.abort(), seen));
}

/** Reads notifications until Codex says a turn started; anything else is put back for the pump. */
async function awaitTurnStarted(
  live: LiveAppServer,
  signal: AbortSignal,
  seen: (notification: ServerNotification) => void,
): Promise<string | null> {
  for (;;) {
    const message = await live.next(signal);
    if (message === null) return null;
    if (message.kind !== 'notification') {
      live.putBack(message);
      return null;
    }
    seen(message.value);
    if (message.value.method === 'turn/started') {
      const started = turnStartedSchema.safeParse(message.value.params);
      if (started.success) return started.data.turn.id;
    }
  }
}

export async function clearThreadGoal(live: LiveAppServer, boundMs: number): Promise<void> {
  await live.rpc.request('thread/goal/clear', { threadId: live.threadId, origin: 'user' }, boundMs);
}

/** The update a `thread/goal/updated` notification carries, or null. */
export function goalUpdateOf(method: string, params: unknown): CodexGoalUpdate | null {
  if (method !== 'thread/goal/updated') return null;
  const parsed = goalUpdatedSchema.safeParse(params);
  return parsed.success ? parsed.data.goal : null;
}

const SETTLED_BY_CODEX: Partial<Record<CodexGoalUpdate['status'], { status: GoalChanges['status']; reason: string }>> =
  {
    complete: { status: 'complete', reason: 'Codex marked the goal complete.' },
    blocked: { status: 'blocked', reason: 'Codex marked the goal blocked.' },
    budgetLimited: { status: 'budgetLimited', reason: 'Codex reports the token budget used up.' },
    usageLimited: { status: 'usageLimited', reason: 'Codex reports its usage limit reached.' },
  };

/**
 * What a Codex goal update changes in Cairn's goal record, or null for nothing. Codex's counters are
 * cumulative for its thread goal, and Cairn's driver accounts every goal turn's own usage too, so the
 * mirror raises Cairn's tokens and time to at least Codex's figures and never counts them twice. A
 * status Codex settles (complete, blocked, a limit) settles an active Cairn goal; `active` and
 * `paused` do not change it, because Cairn's driver runs the loop.
 */
export function goalChangesFor(
  goal: Pick<GoalRecord, 'status' | 'tokensUsed' | 'timeUsedSeconds'>,
  update: CodexGoalUpdate,
): GoalChanges | null {
  const addTokens = Math.max(0, Math.round(update.tokensUsed) - goal.tokensUsed);
  const addTimeMs = Math.max(0, Math.round(update.timeUsedSeconds - goal.timeUsedSeconds)) * 1000;
  const settled = goal.status === 'active' ? SETTLED_BY_CODEX[update.status] : undefined;
  if (addTokens === 0 && addTimeMs === 0 && settled === undefined) return null;
  return {
    ...(addTokens === 0 ? {} : { addTokens }),
    ...(addTimeMs === 0 ? {} : { addTimeMs }),
    ...(settled === undefined ? {} : { status: settled.status, lastReason: settled.reason }),
  };
}
