import { z } from 'zod';
import type { MemoryRecord } from '../memory-model';
import { MAX_MEMORY_TEXT } from '../memory-model';
import { wellFormedString } from '../well-formed-string';
import { defineOperation } from './define-operation';
import { id } from './fields';

const memoryText = wellFormedString()
  .trim()
  .min(1, 'A memory cannot be empty')
  .max(MAX_MEMORY_TEXT, `A memory holds at most ${MAX_MEMORY_TEXT} characters`);

export const memoryOperations = {
  /** Every memory, newest first, or the best full-text matches of `query`. */
  'memory.list': defineOperation<{ memories: readonly MemoryRecord[] }>()({
    mode: 'query',
    input: z.strictObject({
      query: wellFormedString().max(200).optional(),
      limit: z.number().int().min(1).max(500).optional(),
    }),
    errors: ['invalid_input', 'operation_unavailable'],
  }),
  /** The person edits a memory; refused if it changed since they read it (`expectedRevision`). */
  'memory.update': defineOperation<{ memory: MemoryRecord }>()({
    mode: 'command',
    input: z.strictObject({ memoryId: id, text: memoryText, expectedRevision: z.number().int().min(1) }),
    errors: ['invalid_input', 'not_found', 'revision_conflict', 'operation_unavailable'],
  }),
  'memory.remove': defineOperation<{ memoryId: string; removed: true }>()({
    mode: 'command',
    input: z.strictObject({ memoryId: id, expectedRevision: z.number().int().min(1).optional() }),
    errors: ['not_found', 'revision_conflict', 'operation_unavailable'],
  }),
} as const;
