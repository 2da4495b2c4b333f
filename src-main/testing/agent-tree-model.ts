import { asRecord } from './provider-servers/json-record';
import type { QueuedReply, RecordedRequest, ScriptedReply } from './provider-servers';

/** The line a child agent's system prompt carries before its task (see AgentService.systemPromptFor). */
const TASK_MARKER = 'Your task, from the agent that started you:\n';

/** One model call of an agent tree, as the agent that made it sees it (OpenAI Chat Completions bodies). */
export interface AgentCall {
  /** The task of the child that made the call; null for the root. */
  readonly task: string | null;
  /** How many calls this agent made before this one. */
  readonly index: number;
  readonly system: string;
  readonly request: RecordedRequest;
  /** The content of the tool result for `toolCallId` in this request, parsed as JSON when it is JSON. */
  toolResult(toolCallId: string): unknown;
}

export interface AgentTreeModel {
  /** Queue these on the provider test server: each answers one call, whichever agent makes it. */
  replies(count: number): QueuedReply[];
  /** Every call answered so far, in order. */
  readonly calls: readonly AgentCall[];
  /** The calls one agent made (null: the root). */
  callsOf(task: string | null): AgentCall[];
}

/**
 * Plays every agent of a tree from one provider test server, as a model reads its prompt: a request
 * whose system prompt names a child's task is that child's, any other is the root's. `answer` picks
 * the reply from the agent and how far along it is.
 */
export function agentTreeModel(answer: (call: AgentCall) => ScriptedReply): AgentTreeModel {
  const calls: AgentCall[] = [];
  const reply = (request: RecordedRequest): ScriptedReply => {
    const messages = messagesOf(request.body);
    const system = messages
      .filter((message) => message.role === 'system')
      .map((message) => textOf(message.content))
      .join('\n');
    const at = system.indexOf(TASK_MARKER);
    const task = at === -1 ? null : system.slice(at + TASK_MARKER.length).split('\n\n')[0]!;
    const call: AgentCall = {
      task,
      index: calls.filter((earlier) => earlier.task === task).length,
      system,
      request,
      toolResult(toolCallId) {
        const message = messages.find(
          (candidate) => candidate.role === 'tool' && candidate.tool_call_id === toolCallId,
        );
        if (message === undefined) return undefined;
        const content = textOf(message.content);
        try {
          return JSON.parse(content) as unknown;
        } catch {
          return content;
        }
      },
    };
    calls.push(call);
    return answer(call);
  };
  return {
    replies: (count) => Array.from({ length: count }, () => reply),
    calls,
    callsOf: (task) => calls.filter((call) => call.task === task),
  };
}

function messagesOf(body: unknown): Record<string, unknown>[] {
  const messages = asRecord(body).messages;
  return Array.isArray(messages) ? messages.map(asRecord) : [];
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return Array.isArray(content) ? content.map((part) => String(asRecord(part).text ?? '')).join('') : '';
}
