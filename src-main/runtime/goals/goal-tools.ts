import { z } from 'zod';
import type { AgentTool } from '../contract/agent-tool';
import { toolError } from '../contract/agent-tool';
import type { GoalService } from './goal-service';
import { publicGoal } from './goal-service';

const createInput = z.strictObject({
  objective: z.string().trim().min(1).max(4000),
  tokenBudget: z.number().int().min(1000).max(100_000_000).nullable().optional(),
  maxIterations: z.number().int().min(1).max(1000).nullable().optional(),
});
const updateInput = z.strictObject({
  status: z.enum(['complete', 'blocked']),
  reason: z.string().trim().min(1).max(2000),
});

/** The goal tools the model may use: read, create (when the person asked for one), complete or block. */
export function createGoalTools(
  goals: () => GoalService,
  stores: { current(sessionId: string): Parameters<typeof publicGoal>[0] | null },
): AgentTool[] {
  const getGoal: AgentTool = {
    name: 'get_goal',
    description:
      "Reads this session's current goal: objective, status, tokens used against the budget, turns against the cap.",
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    readOnly: true,
    async execute(_input, context) {
      const goal = stores.current(context.sessionId);
      return { output: goal === null ? { goal: null } : { goal: publicGoal(goal) }, isError: false };
    },
  };
  const createGoal: AgentTool = {
    name: 'create_goal',
    description:
      'Sets a goal for this session that you will keep working toward over several turns. Only when the person asked for a goal. Optional tokenBudget and maxIterations limit it.',
    inputSchema: {
      type: 'object',
      properties: {
        objective: { type: 'string', description: 'What done looks like, concretely.' },
        tokenBudget: { type: ['integer', 'null'], minimum: 1000 },
        maxIterations: { type: ['integer', 'null'], minimum: 1 },
      },
      required: ['objective'],
      additionalProperties: false,
    },
    readOnly: true,
    async execute(input, context) {
      const parsed = createInput.safeParse(input);
      if (!parsed.success)
        return toolError(`create_goal needs an objective: ${parsed.error.issues[0]?.message ?? 'invalid input'}`);
      const outcome = goals().arm(
        {
          sessionId: context.sessionId,
          objective: parsed.data.objective,
          tokenBudget: parsed.data.tokenBudget ?? null,
          maxIterations: parsed.data.maxIterations ?? null,
        },
        'agent',
      );
      return outcome.ok ? { output: { goal: outcome.result.goal }, isError: false } : toolError(outcome.error.message);
    },
  };
  const updateGoal: AgentTool = {
    name: 'update_goal',
    description:
      'Marks the goal "complete" when its objective is met, or "blocked" when you cannot go on without the person. Always give the reason.',
    inputSchema: {
      type: 'object',
      properties: { status: { type: 'string', enum: ['complete', 'blocked'] }, reason: { type: 'string' } },
      required: ['status', 'reason'],
      additionalProperties: false,
    },
    readOnly: true,
    async execute(input, context) {
      const parsed = updateInput.safeParse(input);
      if (!parsed.success)
        return toolError(
          'update_goal takes status "complete" or "blocked" and a reason. Pausing and resuming are for the person.',
        );
      const result = goals().settleByAgent(context.sessionId, parsed.data.status, parsed.data.reason);
      return 'error' in result ? toolError(result.error) : { output: { goal: result }, isError: false };
    },
  };
  return [getGoal, createGoal, updateGoal];
}
