import { z } from 'zod';
import { wellFormedString } from './well-formed-string';

/**
 * Interactions: the agent asks, the person answers. A `question` puts 1–4 structured questions; a
 * `form` asks for up to 32 typed fields. The mechanism is generic (tool approval builds on it).
 */

const ident = wellFormedString()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_.-]+$/, 'Use letters, digits and _ . - only');
const label = wellFormedString().trim().min(1).max(200);

export const questionOptionSchema = z.strictObject({
  id: ident,
  label,
  description: wellFormedString().trim().max(500).optional(),
});

export const questionSchema = z
  .strictObject({
    id: ident,
    /** A short tag shown above the question, e.g. "Deploy target". */
    header: wellFormedString().trim().min(1).max(40),
    prompt: wellFormedString().trim().min(1).max(2000),
    /** None (a text question) or 2–6. */
    options: z.array(questionOptionSchema).max(6),
    multiple: z.boolean(),
    /** Whether the person may type their own answer ("Other"). Always true for a text question. */
    allowOther: z.boolean(),
    /** Masked in the UI and never echoed back into the transcript. */
    secret: z.boolean(),
  })
  .refine(
    (question) => question.options.length === 0 || question.options.length >= 2,
    'A question has no options (free text) or 2–6',
  )
  .refine(
    (question) => question.options.length > 0 || question.allowOther,
    'A question without options must allow a typed answer',
  )
  .refine(
    (question) => new Set(question.options.map((option) => option.id)).size === question.options.length,
    'Option ids must be unique',
  );

export const questionRequestSchema = z
  .strictObject({
    kind: z.literal('question'),
    questions: z.array(questionSchema).min(1).max(4),
  })
  .refine(
    (request) => new Set(request.questions.map((question) => question.id)).size === request.questions.length,
    'Question ids must be unique',
  );

const common = { id: ident, label, help: wellFormedString().trim().max(500).optional(), required: z.boolean() };
const selectOption = z.strictObject({ value: ident, label });

export const STRING_FORMATS = ['plain', 'multiline', 'email', 'uri', 'date', 'date-time'] as const;

export const formFieldSchema = z.discriminatedUnion('type', [
  z.strictObject({
    ...common,
    type: z.literal('string'),
    format: z.enum(STRING_FORMATS).optional(),
    minLength: z.number().int().min(0).max(100_000).optional(),
    maxLength: z.number().int().min(1).max(100_000).optional(),
    default: wellFormedString().max(100_000).optional(),
    /** Masked while typed, sealed in the vault, never shown back (e.g. a field an MCP server marks `writeOnly`). */
    secret: z.boolean().optional(),
  }),
  z.strictObject({
    ...common,
    type: z.enum(['number', 'integer']),
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    default: z.number().optional(),
  }),
  z.strictObject({ ...common, type: z.literal('boolean'), default: z.boolean().optional() }),
  z.strictObject({
    ...common,
    type: z.literal('single_select'),
    options: z.array(selectOption).min(1).max(50),
    default: ident.optional(),
  }),
  z.strictObject({
    ...common,
    type: z.literal('multi_select'),
    options: z.array(selectOption).min(1).max(50),
    minItems: z.number().int().min(0).max(50).optional(),
    maxItems: z.number().int().min(1).max(50).optional(),
    default: z.array(ident).max(50).optional(),
  }),
]);

export const formRequestSchema = z
  .strictObject({
    kind: z.literal('form'),
    title: wellFormedString().trim().min(1).max(200),
    description: wellFormedString().trim().max(2000).optional(),
    fields: z.array(formFieldSchema).min(1).max(32),
  })
  .refine(
    (request) => new Set(request.fields.map((field) => field.id)).size === request.fields.length,
    'Field ids must be unique',
  );

/** Approval of a tool call that changes something, showing exactly what will happen. */
export const permissionRequestSchema = z.strictObject({
  kind: z.literal('permission'),
  toolName: wellFormedString().min(1).max(100),
  /** One line for a person: "Edit src/app.ts", "Run npm test". */
  summary: wellFormedString().min(1).max(500),
  preview: z.union([
    z.strictObject({
      kind: z.literal('diff'),
      path: wellFormedString().max(4096),
      diff: wellFormedString().max(1_000_000),
    }),
    z.strictObject({
      kind: z.literal('command'),
      command: wellFormedString().max(100_000),
      cwd: wellFormedString().max(4096),
    }),
    /** A tool of an MCP server: which server, which tool, and the arguments (pretty JSON). */
    z.strictObject({
      kind: z.literal('mcp'),
      server: wellFormedString().max(200),
      tool: wellFormedString().max(200),
      arguments: wellFormedString().max(100_000),
    }),
  ]),
  /** Where a reason given on Deny may not reach the agent's model (an ACP agent that only gets it as a note it may ignore): what the card says of it. */
  reasonNote: wellFormedString().max(300).optional(),
});

/**
 * A sandboxed command's request to a host not on the allowlist was refused: allow that host for the
 * next try (once, for this session, always) or not. The command has already failed; answering
 * continues nothing, it only changes what the next command may reach.
 */
export const networkRequestSchema = z.strictObject({
  kind: z.literal('network'),
  host: wellFormedString().min(1).max(253),
  port: z.number().int().min(1).max(65535),
});

export const interactionRequestSchema = z.union([
  questionRequestSchema,
  formRequestSchema,
  permissionRequestSchema,
  networkRequestSchema,
]);

export type QuestionOption = z.infer<typeof questionOptionSchema>;
export type Question = z.infer<typeof questionSchema>;
export type QuestionRequest = z.infer<typeof questionRequestSchema>;
export type FormField = z.infer<typeof formFieldSchema>;
export type FormRequest = z.infer<typeof formRequestSchema>;
export type PermissionRequest = z.infer<typeof permissionRequestSchema>;
export type NetworkRequest = z.infer<typeof networkRequestSchema>;
export type InteractionRequest = QuestionRequest | FormRequest | PermissionRequest | NetworkRequest;
/** `allow_once_unsandboxed`: a command of Cairn's own run_shell, run once outside the sandbox (Ask only). */
export const PERMISSION_ALLOWANCES = ['allow_once', 'allow_session', 'allow_once_unsandboxed'] as const;
/** What the person decided about a tool call: one of the allowances, or deny (sent as `{ action: 'deny' }`). */
export const PERMISSION_DECISIONS = [...PERMISSION_ALLOWANCES, 'deny'] as const;
export type PermissionDecision = (typeof PERMISSION_DECISIONS)[number];
/** A blocked host: the next command only, this session's commands, every session's (the global allowlist). */
export const NETWORK_ALLOWANCES = ['allow_once', 'allow_session', 'allow_always'] as const;
/** What the person decided about a blocked host: one of the allowances, or deny (sent as `{ action: 'deny' }`). */
export const NETWORK_DECISIONS = [...NETWORK_ALLOWANCES, 'deny'] as const;
export type NetworkDecision = (typeof NETWORK_DECISIONS)[number];
export type InteractionKind = InteractionRequest['kind'];

const denialReason = wellFormedString().trim().max(2000).optional();

export const interactionAnswerSchema = z.union([
  z.strictObject({
    action: z.literal('accept'),
    answers: z.record(
      wellFormedString().max(64),
      z.strictObject({
        optionIds: z.array(wellFormedString().max(64)).max(6),
        text: wellFormedString().max(4000).optional(),
      }),
    ),
  }),
  z.strictObject({
    action: z.literal('accept'),
    values: z.record(
      wellFormedString().max(64),
      z.union([wellFormedString().max(100_000), z.number(), z.boolean(), z.array(wellFormedString().max(64)).max(50)]),
    ),
  }),
  z.strictObject({ action: z.literal('accept'), decision: z.enum(PERMISSION_ALLOWANCES) }),
  z.strictObject({ action: z.literal('accept'), network: z.enum(NETWORK_ALLOWANCES) }),
  /** A tool call or a blocked host not allowed, with the person's reason for the agent (a tool call's only). */
  z.strictObject({ action: z.literal('deny'), reason: denialReason }),
  z.strictObject({ action: z.literal('decline') }),
  z.strictObject({ action: z.literal('cancel') }),
]);

/** The person's answer: question answers (chosen option ids and/or their own text), form values, an allowance, deny, or decline/cancel. */
export type InteractionAnswer = z.infer<typeof interactionAnswerSchema>;
export type QuestionAnswer = Extract<InteractionAnswer, { answers: unknown }>['answers'][string];
export type FormValue = Extract<InteractionAnswer, { values: unknown }>['values'][string];

/**
 * Protocol 1 sent a denial as an acceptance that said deny (`{ action: 'accept', decision: 'deny' }`,
 * `{ action: 'accept', network: 'deny' }`), and answers recorded then keep that shape: read as
 * `{ action: 'deny' }`. The host accepts it from a client and reads it from the record (ARCHITECTURE.md §4, invariant 9).
 */
const protocol1DenialSchema = z
  .union([
    z.strictObject({ action: z.literal('accept'), decision: z.literal('deny'), reason: denialReason }),
    z.strictObject({ action: z.literal('accept'), network: z.literal('deny') }),
  ])
  .transform((old): InteractionAnswer =>
    'reason' in old && old.reason !== undefined ? { action: 'deny', reason: old.reason } : { action: 'deny' },
  );

/** What `interaction.answer` accepts: an answer, or a protocol 1 denial read as `{ action: 'deny' }`. */
export const answerInputSchema = z.union([interactionAnswerSchema, protocol1DenialSchema]);

/** A recorded answer as it reads now: a protocol 1 denial becomes `{ action: 'deny' }`; anything else is kept as it is. */
export function readRecordedAnswer(recorded: unknown): InteractionAnswer {
  const old = protocol1DenialSchema.safeParse(recorded);
  return old.success ? old.data : (recorded as InteractionAnswer);
}

/** The decision an answer to a permission request makes (decline, cancel and anything else deny). */
export function permissionDecisionOf(answer: InteractionAnswer): PermissionDecision {
  return answer.action === 'accept' && 'decision' in answer ? answer.decision : 'deny';
}

/** The decision an answer to a blocked host makes (anything but an allowance denies). */
export function networkDecisionOf(answer: InteractionAnswer): NetworkDecision {
  return answer.action === 'accept' && 'network' in answer ? answer.network : 'deny';
}

export const INTERACTION_STATUSES = ['pending', 'answered', 'declined', 'cancelled', 'closed'] as const;
export type InteractionStatus = (typeof INTERACTION_STATUSES)[number];
/** `expired`: the live request behind it is gone (an MCP server's question, after a restart or when the server withdrew it). */
export type InteractionCloseReason = 'turn_stopped' | 'session_archived' | 'superseded' | 'expired';

export interface InteractionRecord {
  readonly interactionId: string;
  readonly sessionId: string;
  readonly turnId: string;
  readonly runId: string;
  readonly toolCallId: string;
  readonly request: InteractionRequest;
  readonly status: InteractionStatus;
  /** The answer, with secret answers masked. */
  readonly answer: InteractionAnswer | null;
  readonly closeReason: InteractionCloseReason | null;
  /** The paired device it was answered from (its name then); absent when answered on the desktop, and in older records. */
  readonly answeredFrom?: string;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/**
 * A standing "Allow for this session": the tool runs in that session without asking, until revoked.
 * `example` is what the person saw when they allowed it (the command or the change).
 */
export interface PermissionGrant {
  readonly toolName: string;
  readonly grantedAt: number;
  readonly example: string;
}
