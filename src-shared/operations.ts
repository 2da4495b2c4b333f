import { z } from 'zod';
import type { ErrorCode } from './errors';
import type {
  HostInfo,
  QueuedMessage,
  SessionRecord,
  TranscriptPage,
  TurnDetail,
  TurnSummary,
} from './model';
import { PERMISSION_MODES } from './model';

/**
 * The operation table: every operation the host answers, defined once. Its input schema is strict
 * (unknown keys are an error); its result type drives the types of `Bridge.invoke`.
 */

const RESULT = Symbol('result');

export interface OperationDefinition<Input extends z.ZodType, Result> {
  /** Commands change the record and are refused while the host drains; queries only read. */
  readonly mode: 'query' | 'command';
  readonly input: Input;
  readonly errors: readonly ErrorCode[];
  /** Phantom: carries the result type, never present at run time. */
  readonly [RESULT]?: Result;
}

function defineOperation<Result>() {
  return <Input extends z.ZodType>(definition: {
    mode: 'query' | 'command';
    input: Input;
    errors: readonly ErrorCode[];
  }): OperationDefinition<Input, Result> => definition;
}

const id = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'Use letters, digits and _ . : - only');
const title = z.string().trim().min(1, 'A title cannot be empty').max(200);
const text = z.string().max(100_000).refine((value) => value.trim().length > 0, 'The message is empty');
const source = z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, 'A stop source is a short snake_case word');

export const MAX_STEPS_LIMIT = 200;
export const DEFAULT_MAX_STEPS = 25;

export interface SessionListResult {
  readonly sessions: readonly SessionRecord[];
  readonly nextCursor: string | null;
}

export interface SessionSnapshot {
  readonly session: SessionRecord;
  readonly transcript: TranscriptPage;
  readonly activeTurn: TurnSummary | null;
  readonly queue: readonly QueuedMessage[];
}

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

export const operations = {
  'host.info': defineOperation<HostInfo>()({
    mode: 'query',
    input: z.strictObject({}),
    errors: [],
  }),
  'session.create': defineOperation<{ session: SessionRecord }>()({
    mode: 'command',
    input: z.strictObject({
      title: title.optional(),
      workspacePath: z.string().min(1).max(4096).optional(),
      connectionId: id.optional(),
      model: z.string().min(1).max(200).optional(),
      permissionMode: z.enum(PERMISSION_MODES).optional(),
    }),
    errors: ['invalid_input'],
  }),
  'session.list': defineOperation<SessionListResult>()({
    mode: 'query',
    input: z.strictObject({
      archived: z.boolean().optional(),
      query: z.string().max(200).optional(),
      cursor: z.string().max(400).optional(),
      limit: z.number().int().min(1).max(200).optional(),
    }),
    errors: ['invalid_input'],
  }),
  'session.get': defineOperation<SessionSnapshot>()({
    mode: 'query',
    input: z.strictObject({ sessionId: id }),
    errors: ['not_found'],
  }),
  'session.rename': defineOperation<{ session: SessionRecord }>()({
    mode: 'command',
    input: z.strictObject({ sessionId: id, title, expectedRevision: z.number().int().min(0).optional() }),
    errors: ['not_found', 'revision_conflict'],
  }),
  'session.archive': defineOperation<{ session: SessionRecord }>()({
    mode: 'command',
    input: z.strictObject({ sessionId: id, archived: z.boolean() }),
    errors: ['not_found'],
  }),
  'session.remove': defineOperation<{ sessionId: string; removed: true }>()({
    mode: 'command',
    input: z.strictObject({ sessionId: id }),
    errors: ['not_found'],
  }),
  'transcript.page': defineOperation<TranscriptPage>()({
    mode: 'query',
    input: z.strictObject({
      sessionId: id,
      before: z.number().int().min(0).optional(),
      limit: z.number().int().min(1).max(500).optional(),
    }),
    errors: ['not_found'],
  }),
  'turn.start': defineOperation<TurnStartResult>()({
    mode: 'command',
    input: z.strictObject({
      sessionId: id,
      turnId: id,
      text,
      maxSteps: z.number().int().min(1).max(MAX_STEPS_LIMIT).optional(),
    }),
    errors: ['not_found', 'session_archived', 'session_busy', 'operation_conflict'],
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
  'turn.message.submit': defineOperation<MessageSubmitResult>()({
    mode: 'command',
    input: z.strictObject({ sessionId: id, messageId: id, text, placement: z.literal('next_turn') }),
    errors: ['not_found', 'session_archived', 'operation_conflict'],
  }),
  'turn.message.query': defineOperation<{ messages: readonly QueuedMessage[] }>()({
    mode: 'query',
    input: z.strictObject({ sessionId: id, messageIds: z.array(id).max(200).optional() }),
    errors: ['not_found'],
  }),
} as const;

export type Operations = typeof operations;
export type OperationName = keyof Operations;
export type OperationInput<N extends OperationName> = z.input<Operations[N]['input']>;
export type ParsedInput<N extends OperationName> = z.output<Operations[N]['input']>;
export type OperationResult<N extends OperationName> =
  Operations[N] extends OperationDefinition<z.ZodType, infer R> ? R : never;

export const OPERATION_NAMES = Object.keys(operations) as OperationName[];

export function isOperationName(value: unknown): value is OperationName {
  return typeof value === 'string' && Object.hasOwn(operations, value);
}
