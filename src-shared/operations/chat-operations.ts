import { z } from 'zod';
import type { MessageSearchHit, ModelSettings } from '../chat-model';
import { MAX_INSTRUCTIONS_LENGTH, REASONING_EFFORTS } from '../chat-model';
import { wellFormedString } from '../well-formed-string';
import { defineOperation } from './define-operation';
import { id } from './fields';

/** Model settings as an operation takes them: each one optional, within what providers accept. */
export const modelSettingsInput = z.strictObject({
  temperature: z.number().min(0, 'Temperature is 0 or more').max(2, 'Temperature is at most 2').optional(),
  maxOutputTokens: z
    .number()
    .int('Use a whole number of tokens')
    .min(1, 'Allow at least 1 output token')
    .max(1_000_000)
    .optional(),
  reasoningEffort: z.enum(REASONING_EFFORTS).optional(),
});

export const instructionsInput = wellFormedString().max(
  MAX_INSTRUCTIONS_LENGTH,
  `Keep instructions under ${MAX_INSTRUCTIONS_LENGTH} characters`,
);

export interface SessionPreferences {
  /** The session's own instructions ('' for none). */
  readonly instructions: string;
  /** The session's overrides of its connection's model settings. */
  readonly modelSettings: ModelSettings;
  /** The global instructions every session gets first. */
  readonly globalInstructions: string;
  /** The defaults of the session's connection (what applies where the session sets nothing). */
  readonly connectionModelSettings: ModelSettings;
}

export const EXPORT_FORMATS = ['markdown', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface SessionExport {
  readonly fileName: string;
  readonly mimeType: string;
  readonly content: string;
}

/** Finding what was said, instructions, model settings and exports (issue 19). */
export const chatOperations = {
  /** Full-text search over every session's messages. */
  'search.messages': defineOperation<{ hits: readonly MessageSearchHit[] }>()({
    mode: 'query',
    input: z.strictObject({
      query: wellFormedString().max(200),
      includeArchived: z.boolean().optional(),
      limit: z.number().int().min(1).max(100).optional(),
    }),
    errors: ['invalid_input'],
  }),
  'session.preferences': defineOperation<SessionPreferences>()({
    mode: 'query',
    input: z.strictObject({ sessionId: id }),
    errors: ['not_found'],
  }),
  'session.setPreferences': defineOperation<SessionPreferences>()({
    mode: 'command',
    input: z.strictObject({
      sessionId: id,
      instructions: instructionsInput.optional(),
      modelSettings: modelSettingsInput.optional(),
    }),
    errors: ['not_found', 'invalid_input'],
  }),
  'settings.instructions': defineOperation<{ instructions: string }>()({
    mode: 'query',
    input: z.strictObject({}),
    errors: [],
  }),
  'settings.setInstructions': defineOperation<{ instructions: string }>()({
    mode: 'command',
    input: z.strictObject({ instructions: instructionsInput }),
    errors: ['invalid_input'],
  }),
  'connection.modelSettings': defineOperation<{ modelSettings: ModelSettings }>()({
    mode: 'query',
    input: z.strictObject({ connectionId: id }),
    errors: ['not_found'],
  }),
  'connection.setModelSettings': defineOperation<{ modelSettings: ModelSettings }>()({
    mode: 'command',
    input: z.strictObject({ connectionId: id, modelSettings: modelSettingsInput }),
    errors: ['not_found', 'invalid_input'],
  }),
  /** The session as a file: Markdown to read, or JSON (the durable record), secrets masked. */
  'session.export': defineOperation<SessionExport>()({
    mode: 'query',
    input: z.strictObject({ sessionId: id, format: z.enum(EXPORT_FORMATS) }),
    errors: ['not_found'],
  }),
  /** Desktop only: writes the export where the person picks in the OS save dialog (null: cancelled). */
  'session.saveExport': defineOperation<{ path: string | null }>()({
    mode: 'command',
    input: z.strictObject({ sessionId: id, format: z.enum(EXPORT_FORMATS) }),
    errors: ['not_found', 'operation_unavailable'],
  }),
} as const;
