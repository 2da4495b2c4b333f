import { z } from 'zod';
import type { CodexQuarantine, CodexTurnResult } from '../codex-model';
import { defineOperation } from './define-operation';
import { id } from './fields';

export const codexOperations = {
  /** The structured results of a turn's Codex turns (status, final message, files, commands, tokens). */
  'codex.turnResults': defineOperation<{ results: readonly CodexTurnResult[] }>()({
    mode: 'query',
    input: z.strictObject({ sessionId: id, turnId: id }),
    errors: ['not_found'],
  }),
  /** Whether a Codex session is quarantined now (read when the session opens; kept by `codex.quarantine.changed`). */
  'codex.status': defineOperation<{ quarantine: CodexQuarantine | null }>()({
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
} as const;
