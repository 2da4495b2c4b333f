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
