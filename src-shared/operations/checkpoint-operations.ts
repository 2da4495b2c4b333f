import { z } from 'zod';
import { CONFLICT_RESOLUTIONS, type ChangeSetWithDiffs, type RevertResult } from '../checkpoint-model';
import { wellFormedString } from '../well-formed-string';
import { defineOperation } from './define-operation';
import { id } from './fields';

export const checkpointOperations = {
  /**
   * A session's change sets (one turn's, with `turnId`), oldest first, each file with its diff.
   * `unavailable` says why there are none to expect (no git, no workspace).
   */
  'changes.list': defineOperation<{ changeSets: readonly ChangeSetWithDiffs[]; unavailable: string | null }>()({
    mode: 'query',
    input: z.strictObject({ sessionId: id, turnId: id.optional() }),
    errors: ['not_found'],
  }),
  /**
   * Puts files back as they were before a change set: one file (`path`) or all of it. Refused while
   * the session runs a turn. Files the person changed since are a `conflict` unless `resolution` says
   * what to do. The revert is recorded as a change set of its own, so it can be reverted too.
   */
  'changes.revert': defineOperation<RevertResult>()({
    mode: 'command',
    input: z.strictObject({
      sessionId: id,
      changeSetId: id,
      path: wellFormedString().min(1).max(4096).optional(),
      resolution: z.enum(CONFLICT_RESOLUTIONS).optional(),
    }),
    errors: ['not_found', 'session_busy', 'operation_unavailable'],
  }),
} as const;
