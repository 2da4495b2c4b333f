import type { PermissionRequest } from '../../../src-shared/interaction-model';
import type { AgentEvent } from '../contract/agent-backend';
import { askedByHook, blockedByHook, fireToolHooks, type ToolHooks } from '../hooks/tool-hooks';
import type { AgentTool, ToolContext } from '../contract/agent-tool';
import { isSuspension, toolError } from '../contract/agent-tool';

export interface ToolCall {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: unknown;
  /** Approved to run once outside the sandbox (Ask's "Run once without sandbox"). */
  readonly unsandboxed?: boolean;
}

/** What the session's permission mode says about a call: run it, ask the person first, or refuse it. */
export type GateVerdict = { readonly run: true } | { readonly ask: PermissionRequest } | { readonly refuse: string };

/** The tools a session offers and the permission gate in front of them. */
export interface ToolHost {
  /** The tools offered to the model now (explore mode leaves out every tool that changes something). */
  toolsFor(sessionId: string): readonly AgentTool[];
  check(sessionId: string, tool: AgentTool, input: unknown): Promise<GateVerdict>;
  /** Makes the session's outside tools ready (connects its MCP servers); bounded, never throws. */
  prepare?(sessionId: string): Promise<void>;
  /** The person's hooks (PreToolUse, PermissionRequest, PostToolUse); absent where none run. */
  readonly hooks?: ToolHooks;
}

export type ToolCallEnd =
  | { readonly ended: 'result'; readonly output: unknown; readonly isError: boolean }
  | { readonly ended: 'suspended' | 'aborted' };

/**
 * Runs one tool call the way every backend must: a tool that asks the person (ask_user, or an
 * approval the gate requires) suspends the run before anything executes; any other call is recorded
 * (`tool_call`), run, and its result recorded (`tool_result`). An `approved` call was recorded and
 * approved already: it only runs.
 */
export async function* runToolCall(
  call: ToolCall,
  host: ToolHost,
  context: ToolContext,
  options: { approved: boolean },
): AsyncGenerator<AgentEvent, ToolCallEnd> {
  context = {
    ...context,
    toolCallId: call.toolCallId,
    ...(options.approved ? { approved: true } : {}),
    ...(options.approved && call.unsandboxed === true ? { unsandboxed: true } : {}),
  };
  await host.prepare?.(context.sessionId);
  const tool = host.toolsFor(context.sessionId).find((candidate) => candidate.name === call.toolName);
  if (tool !== undefined && !options.approved) {
    const asking = tool.name === 'ask_user' ? await tool.execute(call.input, context) : null;
    if (asking !== null && isSuspension(asking)) {
      yield { type: 'interaction_requested', ...call, request: asking.suspend };
      return { ended: 'suspended' };
    }
    if (asking === null) {
      const info = () => ({ ...call, sessionId: context.sessionId, signal: context.signal });
      const before = yield* fireToolHooks(host.hooks, 'PreToolUse', info());
      if (before?.block != null || before?.stop != null)
        return yield* recorded(call, blockedByHook(before, 'PreToolUse'));
      if (before?.updatedInput != null) call = { ...call, input: before.updatedInput };
      let verdict: GateVerdict =
        before?.allow === true ? { run: true } : await host.check(context.sessionId, tool, call.input);
      if (before?.ask === true && 'run' in verdict) verdict = { ask: await askedByHook(tool, call.input) };
      if ('ask' in verdict) {
        const permission = yield* fireToolHooks(host.hooks, 'PermissionRequest', info());
        if (permission?.block != null || permission?.stop != null)
          return yield* recorded(call, blockedByHook(permission, 'PermissionRequest'));
        if (permission?.updatedInput != null) call = { ...call, input: permission.updatedInput };
        if (permission?.allow !== true) {
          yield { type: 'interaction_requested', ...call, request: verdict.ask };
          return { ended: 'suspended' };
        }
      }
      if ('refuse' in verdict) return yield* recorded(call, toolError(verdict.refuse));
    } else {
      return yield* recorded(call, asking);
    }
  }
  if (!options.approved) yield { type: 'tool_call', ...call };
  if (context.signal.aborted) return { ended: 'aborted' };
  const executed =
    tool === undefined
      ? toolError(
          `There is no tool named "${call.toolName}" here. Available: ${
            host
              .toolsFor(context.sessionId)
              .map((t) => t.name)
              .join(', ') || 'none'
          }.`,
        )
      : await tool
          .execute(call.input, context)
          .catch((error: unknown) =>
            toolError(`The tool failed: ${error instanceof Error ? error.message : String(error)}`),
          );
  if (context.signal.aborted) return { ended: 'aborted' };
  const outcome = isSuspension(executed) ? toolError('This tool cannot ask the person here.') : executed;
  yield {
    type: 'tool_result',
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    output: outcome.output,
    isError: outcome.isError,
  };
  if (tool !== undefined && !outcome.isError) {
    const info = { ...call, sessionId: context.sessionId, signal: context.signal };
    yield* fireToolHooks(host.hooks, 'PostToolUse', info, outcome.output);
  }
  return { ended: 'result', output: outcome.output, isError: outcome.isError };
}

async function* recorded(
  call: ToolCall,
  outcome: { output: unknown; isError: boolean },
): AsyncGenerator<AgentEvent, ToolCallEnd> {
  yield { type: 'tool_call', ...call };
  yield {
    type: 'tool_result',
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    output: outcome.output,
    isError: outcome.isError,
  };
  return { ended: 'result', output: outcome.output, isError: outcome.isError };
}
