/** Goals: an objective the agent keeps working toward by itself, within limits the person sets. */

export const GOAL_STATUSES = [
  'active',
  'paused',
  'blocked',
  'budgetLimited',
  'usageLimited',
  'iterationLimited',
  'complete',
] as const;
export type GoalStatus = (typeof GOAL_STATUSES)[number];

export interface GoalRecord {
  readonly goalId: string;
  readonly sessionId: string;
  readonly objective: string;
  readonly status: GoalStatus;
  readonly tokenBudget: number | null;
  readonly tokensUsed: number;
  readonly maxIterations: number | null;
  readonly iterations: number;
  readonly timeUsedSeconds: number;
  readonly revision: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** Why it is in its status: the agent's reason, the limit reached, the last error. */
  readonly lastReason: string | null;
  /** True once cleared: kept in history, no longer the session's current goal. */
  readonly cleared: boolean;
  /** Who created it. */
  readonly createdBy: 'person' | 'agent';
}

/** Goal statuses the driver keeps working in. */
export function isGoalRunning(status: GoalStatus): boolean {
  return status === 'active';
}
