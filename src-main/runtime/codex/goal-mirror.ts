import { z } from 'zod';
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
 * `thread/goal/updated` is mirrored back: Codex marking it complete or blocked settles Cairn's goal.
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
