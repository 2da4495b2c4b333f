import { z } from 'zod';
import type { CompactionSettings, SummaryRecord } from '../compaction-model';
import type { TurnSummary } from '../model';
import { defineOperation } from './define-operation';
import { id } from './fields';

export const compactionOperations = {
  /**
   * "Compact now": summarises the session's conversation so far into a summary record (a turn of
   * its own, stoppable like any other). A Codex session compacts its thread with Codex's own compaction.
   */
  'session.compact': defineOperation<{ turn: TurnSummary }>()({
    mode: 'command',
    input: z.strictObject({ sessionId: id }),
    errors: ['not_found', 'session_archived', 'session_busy', 'operation_unavailable', 'host_draining'],
  }),
  /** The session's summaries, oldest first (the newest covers the most). */
  'session.summaries': defineOperation<{ summaries: readonly SummaryRecord[] }>()({
    mode: 'query',
    input: z.strictObject({ sessionId: id }),
    errors: ['not_found'],
  }),
  /** At what share of the context window older turns are summarised. */
  'context.compaction.get': defineOperation<CompactionSettings>()({
    mode: 'query',
    input: z.strictObject({}),
    errors: [],
  }),
  'context.compaction.set': defineOperation<CompactionSettings>()({
    mode: 'command',
    input: z.strictObject({
      threshold: z.number().min(0.3).max(0.95),
      expectedRevision: z.number().int().min(0).optional(),
    }),
    errors: ['invalid_input', 'revision_conflict'],
  }),
} as const;
