import { z } from 'zod';
import type { SessionBranches } from '../branch-model';
import { BRANCH_MODES } from '../branch-model';
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
      mode: z.enum(BRANCH_MODES),
      text: text.optional(),
      requestId: id,
    }),
    errors: ['invalid_input', 'not_found', 'operation_conflict', 'operation_unavailable', 'host_draining'],
  }),
  /** Where a session branched from, and the branches made from its messages. */
  'session.branches': defineOperation<SessionBranches>()({
    mode: 'query',
    input: z.strictObject({ sessionId: id }),
    errors: ['not_found'],
  }),
} as const;
