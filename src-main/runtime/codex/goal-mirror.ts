import { z } from 'zod';
import type { GoalRecord } from '../../../src-shared/goal-model';
import type { GoalChanges } from '../../storage/goal-store';
import type { LiveAppServer } from './live-app-server';

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
 * Goals on a Codex session. Cairn's goal driver owns the loop (each goal turn is one Codex turn, with
 * Cairn's limits, Stop and visibility), so the Codex thread goal is set `paused` with the objective:
 * Codex knows the goal (its get_goal / update_goal tools work) but never starts turns unseen.
 * `thread/goal/updated` is mirrored back (`goalChangesFor`), and clearing Cairn's goal clears the
 * thread goal.
 */
export async function setThreadGoal(live: LiveAppServer, goal: MirroredGoal, boundMs: number): Promise<void> {
  await live.rpc.request(
    'thread/goal/set',
    { threadId: live.threadId, origin: 'user', objective: goal.objective, status: 'paused', ...(goal.tokenBudget === null ? {} : { tokenBudget: goal.tokenBudget }) },
    boundMs,
  );
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

const SETTLED_BY_CODEX: Partial<Record<CodexGoalUpdate['status'], { status: GoalChanges['status']; reason: string }>> = {
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
export function goalChangesFor(goal: Pick<GoalRecord, 'status' | 'tokensUsed' | 'timeUsedSeconds'>, update: CodexGoalUpdate): GoalChanges | null {
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
