import { z } from 'zod';
import type { CodexQuarantine, CodexThreadProblem, CodexTurnResult } from '../codex-model';
import { defineOperation } from './define-operation';
import { id } from './fields';
import { wellFormedString } from '../well-formed-string';

export const codexOperations = {
  /** The structured results of a turn's Codex turns (status, final message, files, commands, tokens). */
  'codex.turnResults': defineOperation<{ results: readonly CodexTurnResult[] }>()({
    mode: 'query',
    input: z.strictObject({ sessionId: id, turnId: id }),
    errors: ['not_found'],
  }),
  /**
   * Whether a Codex session is quarantined now, and its thread problem (a thread that could not be
   * resumed, with the person's choice). Read when the session opens; kept by `codex.quarantine.changed`
   * and `codex.thread.changed`.
   */
  'codex.status': defineOperation<{ quarantine: CodexQuarantine | null; threadProblem: CodexThreadProblem | null }>()({
    mode: 'query',
    input: z.strictObject({ sessionId: id }),
    errors: ['not_found'],
  }),
  /**
   * Force stop: kills again the app-server of a quarantined Codex session (one that could not be
   * confirmed gone after Stop or a failure). `stopped` says whether it is gone now.
   */
  'codex.forceStop': defineOperation<{ stopped: boolean }>()({
    mode: 'command',
    input: z.strictObject({ sessionId: id }),
    errors: ['not_found'],
  }),
  /**
   * The person's choice for a Codex thread that could not be resumed: `new_thread` (a new thread that
   * starts from a summary of Cairn's record; final) or `retry` (the same thread again). Recorded before
   * it is acted on; the failed turn then runs again. Repeating a recorded choice changes nothing.
   */
  'codex.chooseThread': defineOperation<{ threadProblem: CodexThreadProblem }>()({
    mode: 'command',
    input: z.strictObject({
      sessionId: id,
      threadId: wellFormedString().min(1).max(200),
      choice: z.enum(['new_thread', 'retry']),
    }),
    errors: ['not_found', 'operation_conflict'],
  }),
} as const;
