import { runToolCall, type ToolHost } from '../../tools/tool-runner';
import type { AgentEvent } from '../../contract/agent-backend';
import type { ScriptedDirective } from './scripted-directives';

type Context = Parameters<typeof runToolCall>[2];

/**
 * The scripted agent's `/spawn` and `/spawn-many`: one spawn_agent call per child, with tool call ids
 * stable across the runs of a turn (a resumed turn replays the same spawns and gets the same
 * children back), then, with `wait`, one wait_agents call for all of them.
 */
export async function* scriptedSpawn(
  directive: Extract<ScriptedDirective, { kind: 'spawn' }>,
  tools: ToolHost,
  context: Context,
): AsyncGenerator<AgentEvent> {
  const single = directive.tasks.length === 1;
  yield {
    type: 'text_delta',
    text: single
      ? `Starting a ${directive.agent} agent.`
      : `Starting ${directive.tasks.length} ${directive.agent} agents.`,
  };
  const childIds: string[] = [];
  for (const [index, task] of directive.tasks.entries()) {
    const end = yield* runToolCall(
      {
        toolCallId: `spawn-${context.turnId}-${index + 1}`,
        toolName: 'spawn_agent',
        input: { agent: directive.agent, task, wait: single && directive.wait },
      },
      tools,
      context,
      { approved: false },
    );
    if (end.ended !== 'result') return;
    if (end.isError) {
      yield { type: 'text_delta', text: `\n\nCould not start child ${index + 1}: ${errorOf(end.output)}` };
      continue;
    }
    const output = end.output as { childSessionId: string; status?: string; report?: string | null };
    childIds.push(output.childSessionId);
    if (single && directive.wait)
      yield {
        type: 'text_delta',
        text: `\n\nThe ${directive.agent} agent ${output.status ?? 'ended'}: ${output.report ?? '(no report)'}`,
      };
  }
  if (single || !directive.wait || childIds.length === 0) return;
  const end = yield* runToolCall(
    { toolCallId: `wait-${context.turnId}`, toolName: 'wait_agents', input: { ids: childIds } },
    tools,
    context,
    { approved: false },
  );
  if (end.ended !== 'result') return;
  const children = (end.output as { children?: { status: string }[] }).children ?? [];
  yield {
    type: 'text_delta',
    text: `\n\nAll ${children.length} children settled: ${children.map((child) => child.status).join(', ')}.`,
  };
}

function errorOf(output: unknown): string {
  return typeof output === 'object' && output !== null && 'error' in output
    ? String((output as { error: unknown }).error)
    : JSON.stringify(output);
}
