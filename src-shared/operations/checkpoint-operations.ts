import { z } from 'zod';
import {
  CONFLICT_RESOLUTIONS,
  type ChangeFilesPage,
  type FileDiff,
  type ListedChangeSet,
  type RevertResult,
} from '../checkpoint-model';
import { wellFormedString } from '../well-formed-string';
import { defineOperation } from './define-operation';
import { id } from './fields';

export const checkpointOperations = {
  /**
   * A session's change sets (one turn's, with `turnId`), oldest first, each with its first
   * `LISTED_FILES` files by path (change and line counts, no diff bodies) and its totals, so a
   * listing costs the same for a 1,000-file turn as for a small one; `changes.files` reads the rest,
   * `changes.diff` one file's diff. `unavailable` says why there are none to expect (no git, no workspace).
   */
  'changes.list': defineOperation<{ changeSets: readonly ListedChangeSet[]; unavailable: string | null }>()({
    mode: 'query',
    input: z.strictObject({ sessionId: id, turnId: id.optional() }),
    errors: ['not_found'],
  }),
  /** A change set's files by path, `FILES_PAGE` at most from `offset` on (Show all files in Changes). */
  'changes.files': defineOperation<ChangeFilesPage>()({
    mode: 'query',
    input: z.strictObject({ sessionId: id, changeSetId: id, offset: z.number().int().min(0).max(10_000_000) }),
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
