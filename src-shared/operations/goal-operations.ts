import { z } from 'zod';
import { wellFormedString } from '../well-formed-string';
import type { GoalRecord } from '../goal-model';
import { defineOperation } from './define-operation';
import { id } from './fields';

const objective = wellFormedString().trim().min(1, 'Say what the goal is').max(4000);
const tokenBudget = z
  .number()
  .int()
  .min(1000, 'A budget below 1,000 tokens would stop at once')
  .max(100_000_000)
  .nullable();
const maxIterations = z.number().int().min(1).max(1000).nullable();
/** A client-chosen id for one goal.control command: a replay with it answers the goal that command left. */
const controlId = id;

export const goalOperations = {
  'goal.arm': defineOperation<{ goal: GoalRecord }>()({
    mode: 'command',
    input: z.strictObject({ sessionId: id, objective, tokenBudget, maxIterations }),
    errors: ['not_found', 'session_archived', 'operation_conflict'],
  }),
  'goal.control': defineOperation<{ goal: GoalRecord }>()({
    mode: 'command',
    input: z.discriminatedUnion('action', [
      z.strictObject({
        sessionId: id,
        goalId: id,
        expectedRevision: z.number().int().min(0),
        controlId: controlId.optional(),
        action: z.enum(['pause', 'resume', 'clear']),
      }),
      z.strictObject({
        sessionId: id,
        goalId: id,
        expectedRevision: z.number().int().min(0),
        controlId: controlId.optional(),
        action: z.literal('setLimits'),
        tokenBudget: tokenBudget.optional(),
        maxIterations: maxIterations.optional(),
      }),
    ]),
    errors: ['not_found', 'revision_conflict', 'operation_conflict', 'session_archived'],
  }),
  'goal.get': defineOperation<{ goal: GoalRecord | null }>()({
    mode: 'query',
    input: z.strictObject({ sessionId: id }),
    errors: ['not_found'],
  }),
  /** The current goals of many sessions at once (the sidebar's badges); sessions without one are left out. */
  'goal.list': defineOperation<{ goals: readonly GoalRecord[] }>()({
    mode: 'query',
    input: z.strictObject({ sessionIds: z.array(id).max(500) }),
    errors: [],
  }),
  'goal.history': defineOperation<{ goals: readonly GoalRecord[] }>()({
    mode: 'query',
    input: z.strictObject({ sessionId: id }),
    errors: ['not_found'],
  }),
} as const;
