import { z } from 'zod';
import { CONFLICT_RESOLUTIONS, type FileDiff, type ListedChangeSet, type RevertResult } from '../checkpoint-model';
import { wellFormedString } from '../well-formed-string';
import { defineOperation } from './define-operation';
import { id } from './fields';

export const checkpointOperations = {
  /**
   * A session's change sets (one turn's, with `turnId`), oldest first, each file with its change and
   * line counts; no diff bodies (`changes.diff` reads one file's), so a listing costs the same for a
   * 1,000-file turn as for a small one. `unavailable` says why there are none to expect (no git, no workspace).
   */
  'changes.list': defineOperation<{ changeSets: readonly ListedChangeSet[]; unavailable: string | null }>()({
    mode: 'query',
    input: z.strictObject({ sessionId: id, turnId: id.optional() }),
    errors: ['not_found'],
  }),
  /** One file's diff in a change set, read from its checkpoints when it is shown. */
  'changes.diff': defineOperation<FileDiff>()({
    mode: 'query',
    input: z.strictObject({ sessionId: id, changeSetId: id, path: wellFormedString().min(1).max(4096) }),
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
