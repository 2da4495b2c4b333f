import { z } from 'zod';
import type { InteractionRecord } from '../interaction-model';
import { answerInputSchema, INTERACTION_STATUSES } from '../interaction-model';
import type { TurnSummary } from '../model';
import { defineOperation } from './define-operation';
import { id } from './fields';

export interface InteractionAnswerResult {
  readonly interaction: InteractionRecord;
  /** The turn, continuing in a new run with the answer. */
  readonly turn: TurnSummary;
}

export const interactionOperations = {
  'interaction.list': defineOperation<{ interactions: readonly InteractionRecord[] }>()({
    mode: 'query',
    input: z.strictObject({
      sessionId: id.optional(),
      status: z.enum(INTERACTION_STATUSES).optional(),
      limit: z.number().int().min(1).max(500).optional(),
    }),
    errors: ['not_found'],
  }),
  'interaction.get': defineOperation<{ interaction: InteractionRecord }>()({
    mode: 'query',
    input: z.strictObject({ interactionId: id }),
    errors: ['not_found'],
  }),
  'interaction.answer': defineOperation<InteractionAnswerResult>()({
    mode: 'command',
    input: z.strictObject({ interactionId: id, answer: answerInputSchema }),
    errors: ['not_found', 'invalid_input', 'operation_conflict', 'session_archived', 'session_busy'],
  }),
} as const;
