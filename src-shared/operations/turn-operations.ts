import { z } from 'zod';
import type { QueuedMessage, TurnDetail, TurnSummary } from '../model';
import { attachmentIds } from './attachment-operations';
import { defineOperation } from './define-operation';
import { id, MAX_STEPS_LIMIT, source, text } from './fields';

export interface TurnStartResult {
  readonly turn: TurnSummary;
  /** False when a retry with the same turnId found the turn already there. */
  readonly created: boolean;
}

export interface TurnStopResult {
  readonly outcome: 'stopped' | 'already_terminal' | 'nothing_running';
  readonly turn: TurnSummary | null;
  /** Follow-ups that were waiting behind the stopped turn; Stop cancels them so nothing starts by surprise. */
  readonly cancelledMessages: readonly QueuedMessage[];
}

export interface MessageSubmitResult {
  readonly message: QueuedMessage;
  readonly disposition: 'started' | 'queued';
}

export const turnOperations = {
  /** Starts a turn now with the client's own id (and, from the / menu, a skill); `session_busy` while one runs. Messages are sent with turn.message.submit. */
  'turn.start': defineOperation<TurnStartResult>()({
    mode: 'command',
    input: z.strictObject({
      sessionId: id,
      turnId: id,
      text,
      maxSteps: z.number().int().min(1).max(MAX_STEPS_LIMIT).optional(),
      /** A skill to load for this turn (chosen from the composer's / menu), recorded before the agent starts. */
      skillId: id.optional(),
      attachmentIds: attachmentIds.optional(),
    }),
    errors: [
      'not_found',
      'session_archived',
      'session_busy',
      'operation_conflict',
      'operation_unavailable',
      'invalid_input',
    ],
  }),
  'turn.stop': defineOperation<TurnStopResult>()({
    mode: 'command',
    input: z.strictObject({ sessionId: id, turnId: id.optional(), source: source.optional() }),
    errors: ['not_found'],
  }),
  'turn.query': defineOperation<{ turn: TurnDetail }>()({
    mode: 'query',
    input: z.strictObject({ sessionId: id, turnId: id }),
    errors: ['not_found'],
  }),
  'turn.resume': defineOperation<{ turn: TurnSummary }>()({
    mode: 'command',
    input: z.strictObject({ sessionId: id, turnId: id }),
    errors: ['not_found', 'session_archived', 'session_busy', 'operation_conflict'],
  }),
  /** Sends a message, the one way the app does: a turn starts with it (turn id = message id) when the session is free, else it waits in the queue. */
  'turn.message.submit': defineOperation<MessageSubmitResult>()({
    mode: 'command',
    input: z.strictObject({
      sessionId: id,
      messageId: id,
      text,
      placement: z.literal('next_turn'),
      attachmentIds: attachmentIds.optional(),
    }),
    errors: ['not_found', 'session_archived', 'operation_conflict', 'invalid_input', 'session_busy'],
  }),
  /** Rewrites a queued follow-up's text; refused once it has started (or was removed). */
  'turn.message.edit': defineOperation<{ message: QueuedMessage }>()({
    mode: 'command',
    input: z.strictObject({ sessionId: id, messageId: id, text }),
    errors: ['not_found', 'operation_conflict'],
  }),
  /** Takes a queued follow-up out of the queue (it ends `cancelled`); refused once it has started. */
  'turn.message.remove': defineOperation<{ message: QueuedMessage }>()({
    mode: 'command',
    input: z.strictObject({ sessionId: id, messageId: id }),
    errors: ['not_found', 'operation_conflict'],
  }),
  'turn.message.query': defineOperation<{ messages: readonly QueuedMessage[] }>()({
    mode: 'query',
    input: z.strictObject({ sessionId: id, messageIds: z.array(id).max(200).optional() }),
    errors: ['not_found'],
  }),
} as const;
