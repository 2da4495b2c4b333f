import { z } from 'zod';
import type { ContextMeter, ModelWindowOverride } from '../context-model';
import { wellFormedString } from '../well-formed-string';
import { defineOperation } from './define-operation';
import { id } from './fields';

export interface ModelWindowSettingsResult {
  readonly revision: number;
  readonly overrides: readonly ModelWindowOverride[];
}

const tokens = z.number().int().min(1_000).max(10_000_000);

export const contextOperations = {
  /** How full the session's context was at its latest model request (null before the first since the host started). */
  'context.meter': defineOperation<{ meter: ContextMeter | null }>()({
    mode: 'query',
    input: z.strictObject({ sessionId: id }),
    errors: ['not_found'],
  }),
  /** The context windows the person set per connection and model. */
  'context.windows.get': defineOperation<ModelWindowSettingsResult>()({
    mode: 'query',
    input: z.strictObject({}),
    errors: [],
  }),
  /** Sets a model's context window and answer reserve, or clears it (`window: null`) back to the known or default value. */
  'context.windows.set': defineOperation<ModelWindowSettingsResult>()({
    mode: 'command',
    input: z.strictObject({
      connectionId: id,
      modelId: wellFormedString().min(1).max(200),
      window: z
        .strictObject({ contextWindow: tokens, outputReserve: z.number().int().min(0).max(1_000_000) })
        .nullable(),
      expectedRevision: z.number().int().min(0).optional(),
    }),
    errors: ['invalid_input', 'revision_conflict'],
  }),
} as const;
