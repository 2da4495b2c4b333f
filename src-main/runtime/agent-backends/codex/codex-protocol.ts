import { z } from 'zod';

/**
 * The narrow part of the app-server protocol (codex-cli 0.171.0, `codex app-server generate-ts`) that
 * Cairn reads, validated where it enters. Objects pass unknown keys through: Codex adds fields
 * between versions, and Cairn reads only these.
 */

export const initializeResultSchema = z.object({ userAgent: z.string() }).passthrough();

export const threadResultSchema = z
  .object({ thread: z.object({ id: z.string() }).passthrough(), model: z.string().optional() })
  .passthrough();

export const turnStartResultSchema = z.object({ turn: z.object({ id: z.string() }).passthrough() }).passthrough();

const commandItem = z.object({
  type: z.literal('commandExecution'),
  id: z.string(),
  command: z.string(),
  cwd: z.string(),
  status: z.string(),
  aggregatedOutput: z.string().nullable().optional(),
  exitCode: z.number().nullable().optional(),
  durationMs: z.number().nullable().optional(),
});
const fileChangeItem = z.object({
  type: z.literal('fileChange'),
  id: z.string(),
  changes: z.array(
    z.object({ path: z.string(), diff: z.string(), kind: z.object({ type: z.string() }).passthrough() }).passthrough(),
  ),
  status: z.string(),
});
const agentMessageItem = z.object({ type: z.literal('agentMessage'), id: z.string(), text: z.string() });
const otherItem = z.object({ type: z.string(), id: z.string() });

export const threadItemSchema = z.union([
  commandItem.passthrough(),
  fileChangeItem.passthrough(),
  agentMessageItem.passthrough(),
  otherItem.passthrough(),
]);
export type CommandItem = z.infer<typeof commandItem>;
export type FileChangeItem = z.infer<typeof fileChangeItem>;

export const itemNotificationSchema = z.object({ turnId: z.string(), item: threadItemSchema }).passthrough();

/** What a command item notification says, read as far as it can be: `unread` says what was missing. */
export type CommandNotice =
  | { readonly kind: 'command'; readonly turnId: string; readonly item: CommandItem; readonly unread: string | null }
  | { readonly kind: 'other' }
  | { readonly kind: 'unreadable'; readonly why: string };

const commandIdentity = z
  .object({ turnId: z.string(), item: z.object({ type: z.literal('commandExecution'), id: z.string() }).passthrough() })
  .passthrough();

/**
 * An `item/started` or `item/completed` notification, read for a command: one that names its turn and
 * item but not in the shape Cairn knows (a field missing or of another type) is kept with what it
 * does say, never dropped; one without even those is `unreadable`.
 */
export function commandNoticeOf(params: unknown): CommandNotice {
  const item: unknown = typeof params === 'object' && params !== null && 'item' in params ? params.item : undefined;
  const type: unknown = typeof item === 'object' && item !== null && 'type' in item ? item.type : undefined;
  if (type !== undefined && type !== 'commandExecution') return { kind: 'other' };
  const strict = z.object({ turnId: z.string(), item: commandItem }).passthrough().safeParse(params);
  if (strict.success) return { kind: 'command', turnId: strict.data.turnId, item: strict.data.item, unread: null };
  const identity = commandIdentity.safeParse(params);
  if (!identity.success) return { kind: 'unreadable', why: issuesOf(identity.error) };
  const raw = identity.data.item;
  const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
  const number = (value: unknown): number | null => (typeof value === 'number' ? value : null);
  const command = text(raw.command) ?? (Array.isArray(raw.command) ? raw.command.map(String).join(' ') : null);
  return {
    kind: 'command',
    turnId: identity.data.turnId,
    item: {
      type: 'commandExecution',
      id: raw.id,
      command: command ?? '(Codex did not say which command)',
      cwd: text(raw.cwd) ?? '',
      status: text(raw.status) ?? 'unknown',
      aggregatedOutput: text(raw.aggregatedOutput),
      exitCode: number(raw.exitCode),
      durationMs: number(raw.durationMs),
    },
    unread: issuesOf(strict.error),
  };
}

function issuesOf(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || '(params)'}: ${issue.message}`).join('; ');
}
export const deltaNotificationSchema = z
  .object({ turnId: z.string(), itemId: z.string(), delta: z.string() })
  .passthrough();

const breakdown = z
  .object({
    inputTokens: z.number(),
    cachedInputTokens: z.number(),
    outputTokens: z.number(),
    reasoningOutputTokens: z.number(),
  })
  .passthrough();
export const tokenUsageNotificationSchema = z
  .object({
    turnId: z.string(),
    tokenUsage: z
      .object({ last: breakdown, modelContextWindow: z.number().int().positive().nullable().optional() })
      .passthrough(),
  })
  .passthrough();

export const turnStartedSchema = z.object({ turn: z.object({ id: z.string() }).passthrough() }).passthrough();
export const turnCompletedSchema = z
  .object({
    turn: z
      .object({
        id: z.string(),
        status: z.enum(['completed', 'interrupted', 'failed', 'inProgress']),
        error: z.object({ message: z.string() }).passthrough().nullable().optional(),
      })
      .passthrough(),
  })
  .passthrough();
export const errorNotificationSchema = z
  .object({
    error: z.object({ message: z.string(), codexErrorInfo: z.unknown().optional() }).passthrough(),
    willRetry: z.boolean().optional(),
  })
  .passthrough();

export const commandApprovalSchema = z
  .object({
    turnId: z.string(),
    itemId: z.string(),
    command: z.string().nullable().optional(),
    cwd: z.string().nullable().optional(),
    reason: z.string().nullable().optional(),
  })
  .passthrough();
export const fileChangeApprovalSchema = z
  .object({ turnId: z.string(), itemId: z.string(), reason: z.string().nullable().optional() })
  .passthrough();
export const userInputRequestSchema = z
  .object({
    turnId: z.string(),
    itemId: z.string(),
    questions: z.array(
      z
        .object({
          id: z.string(),
          header: z.string(),
          question: z.string(),
          isOther: z.boolean(),
          isSecret: z.boolean(),
          options: z.array(z.object({ label: z.string(), description: z.string() }).passthrough()).nullable(),
        })
        .passthrough(),
    ),
  })
  .passthrough();
export type UserInputRequest = z.infer<typeof userInputRequestSchema>;

export const METHODS = {
  commandApproval: 'item/commandExecution/requestApproval',
  fileChangeApproval: 'item/fileChange/requestApproval',
  userInput: 'item/tool/requestUserInput',
} as const;
