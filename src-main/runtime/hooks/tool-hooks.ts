import type { PermissionRequest } from '../../../src-shared/interaction-model';
import type { AgentEvent } from '../contract/agent-backend';
import type { AgentTool } from '../contract/agent-tool';
import type { HookEventRequest, HookFiring } from './hook-service';

/** What runs the person's hooks for a tool call (the HookService; absent where hooks are off). */
export interface ToolHooks {
  fire(request: HookEventRequest): Promise<HookFiring>;
}

interface CallInfo {
  readonly sessionId: string;
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: unknown;
  readonly signal: AbortSignal;
}

/** The hooks of one tool event: each run recorded (attributed to the call), and what they decided. */
export async function* fireToolHooks(
  hooks: ToolHooks | undefined,
  event: 'PreToolUse' | 'PermissionRequest' | 'PostToolUse',
  call: CallInfo,
  response?: unknown,
): AsyncGenerator<AgentEvent, HookFiring | null> {
  if (hooks === undefined) return null;
  const firing = await hooks.fire({
    event,
    sessionId: call.sessionId,
    tool: {
      name: call.toolName,
      input: call.input,
      toolCallId: call.toolCallId,
      isMcp: call.toolName.includes('__'),
      ...(response === undefined ? {} : { response }),
    },
    signal: call.signal,
  });
  for (const report of firing.reports) {
    // PostToolUse: a block's reason or added context is feedback the model reads before its next step.
    const feedback = event === 'PostToolUse' && report === firing.reports[0] ? postToolFeedback(firing) : null;
    yield { type: 'hook_run', report, toolCallId: call.toolCallId, modelText: feedback };
  }
  return firing;
}

function postToolFeedback(firing: HookFiring): string | null {
  const parts = [firing.block?.reason, firing.context].filter((part): part is string => typeof part === 'string');
  return parts.length === 0 ? null : `PostToolUse hook feedback:\n${parts.join('\n\n')}`;
}

/** The tool result a hook's block gives the model: which hook, and why. */
export function blockedByHook(firing: HookFiring, event: string): { output: unknown; isError: true } {
  const report = firing.block?.report ?? firing.stop?.report;
  const reason = firing.block?.reason ?? firing.stop?.reason ?? 'blocked';
  return {
    output: {
      error: `Blocked by the ${event} hook "${report?.command ?? ''}": ${reason}`,
      blockedByHook: { event, command: report?.command ?? '', source: report?.source ?? '' },
    },
    isError: true,
  };
}

/** The hooks of a step inside a run that only inform (PreCompact before an automatic compaction), each run recorded. */
export async function* fireStepHooks(
  hooks: ToolHooks | undefined,
  request: HookEventRequest,
): AsyncGenerator<AgentEvent, HookFiring | null> {
  if (hooks === undefined) return null;
  const firing = await hooks.fire(request);
  for (const report of firing.reports) yield { type: 'hook_run', report };
  return firing;
}

/** The approval a PreToolUse hook's `ask` puts to the person where the mode would have run the call. */
export async function askedByHook(tool: AgentTool, input: unknown): Promise<PermissionRequest> {
  const preview = (await tool.preview?.(input)) ?? null;
  const shown =
    preview === null || preview.kind === 'invalid'
      ? { kind: 'command' as const, command: JSON.stringify(input), cwd: '' }
      : preview;
  return { kind: 'permission', toolName: tool.name, summary: `A hook asks you first: ${tool.name}`, preview: shown };
}
