import type { z } from 'zod';
import type { OperationDefinition } from './define-operation';
import { acpOperations } from './acp-operations';
import { automationOperations } from './automation-operations';
import { branchOperations } from './branch-operations';
import { chatOperations } from './chat-operations';
import { checkpointOperations } from './checkpoint-operations';
import { attachmentOperations } from './attachment-operations';
import { agentOperations } from './agent-operations';
import { codexOperations } from './codex-operations';
import { compactionOperations } from './compaction-operations';
import { hookOperations } from './hook-operations';
import { connectionOperations } from './connection-operations';
import { contextOperations } from './context-operations';
import { desktopOperations } from './desktop-operations';
import { deviceOperations } from './device-operations';
import { folderOperations } from './folder-operations';
import { goalOperations } from './goal-operations';
import { interactionOperations } from './interaction-operations';
import { memoryOperations } from './memory-operations';
import { mcpOperations } from './mcp-operations';
import { permissionOperations } from './permission-operations';
import { sessionOperations } from './session-operations';
import { shellOperations } from './shell-operations';
import { skillOperations } from './skill-operations';
import { storageOperations } from './storage-operations';
import { turnOperations } from './turn-operations';
import { workhubOperations } from './workhub-operations';
import { worktreeOperations } from './worktree-operations';

/**
 * The operation table: every operation the host answers, defined once. Its input schema is strict
 * (unknown keys are an error); its result type drives the types of `Bridge.invoke`.
 */
export const operations = {
  ...sessionOperations,
  ...storageOperations,
  ...turnOperations,
  ...connectionOperations,
  ...interactionOperations,
  ...permissionOperations,
  ...goalOperations,
  ...workhubOperations,
  ...shellOperations,
  ...desktopOperations,
  ...folderOperations,
  ...codexOperations,
  ...automationOperations,
  ...memoryOperations,
  ...branchOperations,
  ...skillOperations,
  ...mcpOperations,
  ...chatOperations,
  ...attachmentOperations,
  ...contextOperations,
  ...agentOperations,
  ...compactionOperations,
  ...hookOperations,
  ...checkpointOperations,
  ...worktreeOperations,
  ...acpOperations,
  ...deviceOperations,
} as const;

export type { OperationDefinition } from './define-operation';
export { DEFAULT_MAX_STEPS, MAX_STEPS_LIMIT } from './fields';
export type { ConnectionCatalog } from './connection-operations';
export type { DeviceListResult } from './device-operations';
export type { InteractionAnswerResult } from './interaction-operations';
export type { PermissionGrantsResult, SandboxSettingsResult } from './permission-operations';
export type { SessionListResult, SessionSnapshot } from './session-operations';
export type { MessageSubmitResult, TurnStartResult, TurnStopResult } from './turn-operations';

export type Operations = typeof operations;
export type OperationName = keyof Operations;
export type OperationInput<N extends OperationName> = z.input<Operations[N]['input']>;
export type ParsedInput<N extends OperationName> = z.output<Operations[N]['input']>;
export type OperationResult<N extends OperationName> =
  Operations[N] extends OperationDefinition<z.ZodType, infer R> ? R : never;
/** The error codes operation `N` declares: with `BoundaryError<N>`, the only ones its handler may answer with. */
export type DeclaredError<N extends OperationName> = Operations[N]['errors'][number];
/**
 * The codes the host's dispatcher may answer any operation with, whatever it declares: `invalid_input`
 * (input its schema refuses), `storage_damaged` and `internal_failure` (what a throw becomes), and, for a
 * command, `host_draining` (once shutdown begins). A handler may return them too without declaring them.
 * `device_forbidden` is not one: the dispatcher gives it only to what stays on the desktop.
 */
export type BoundaryError<N extends OperationName> =
  | 'invalid_input'
  | 'storage_damaged'
  | 'internal_failure'
  | (Operations[N]['mode'] extends 'command' ? 'host_draining' : never);
/** Every code a client can get from operation `N` (and `device_forbidden` for what stays on the desktop). */
export type OperationErrorCode<N extends OperationName> = DeclaredError<N> | BoundaryError<N>;

export const OPERATION_NAMES = Object.keys(operations) as OperationName[];

export function isOperationName(value: unknown): value is OperationName {
  return typeof value === 'string' && Object.hasOwn(operations, value);
}
