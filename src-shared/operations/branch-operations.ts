import { z } from 'zod';
import type { SessionBranches } from '../branch-model';
import { BRANCH_REQUEST_MODES } from '../branch-model';
import { CONFLICT_RESOLUTIONS, type RewindPlan, type RewindResult } from '../checkpoint-model';
import type { SessionRecord, TurnSummary } from '../model';
import { defineOperation } from './define-operation';
import { id, text } from './fields';

export const branchOperations = {
  /**
   * Branches a session at one of its messages: a new session holding the conversation before that
   * turn, which then runs the edited message (`edit`, at the person's message, with `text`) or the
   * same request again (`regenerate`, at an agent answer). Idempotent on `requestId`.
   */
  'session.branch': defineOperation<{ session: SessionRecord; turn: TurnSummary | null; created: boolean }>()({
    mode: 'command',
    input: z.strictObject({
      sessionId: id,
      atItemId: id,
      mode: z.enum(BRANCH_REQUEST_MODES),
      text: text.optional(),
      requestId: id,
    }),
    errors: [
      'invalid_input',
      'not_found',
      'operation_conflict',
      'operation_unavailable',
      'host_draining',
      'session_busy',
    ],
  }),
  /**
   * Rewind to here: conversation and files back to before the turn of the person's message
   * `atItemId`. The files every later turn changed go back (through their checkpoints); files the
   * person changed since are a `conflict` (nothing written, no branch) unless `resolution` says what
   * to do. The conversation before the turn becomes a new branch (the source keeps every turn), and
   * the files are that branch's `rewind` change set, which `changes.revert` undoes. Idempotent on `requestId`.
   */
  'session.rewind': defineOperation<RewindResult>()({
    mode: 'command',
    input: z.strictObject({
      sessionId: id,
      atItemId: id,
      requestId: id,
      resolution: z.enum(CONFLICT_RESOLUTIONS).optional(),
    }),
    errors: [
      'invalid_input',
      'not_found',
      'operation_conflict',
      'operation_unavailable',
      'session_busy',
      'host_draining',
    ],
  }),
  /**
   * What `session.rewind` at the same message would do to the files, without doing it: each file it
   * would change, create or delete, and which the person changed since (the rewind would ask about
   * those). Refused as the rewind would be (a turn running, a later turn without a checkpoint).
   */
  'session.rewindPlan': defineOperation<RewindPlan>()({
    mode: 'query',
    input: z.strictObject({ sessionId: id, atItemId: id }),
    errors: ['invalid_input', 'not_found', 'operation_unavailable', 'session_busy'],
  }),
  /** Where a session branched from, and the branches made from its messages. */
  'session.branches': defineOperation<SessionBranches>()({
    mode: 'query',
    input: z.strictObject({ sessionId: id }),
    errors: ['not_found'],
  }),
} as const;
