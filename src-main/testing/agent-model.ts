import { asRecord } from './provider-servers/json-record';
import type { RecordedRequest } from './provider-servers/provider-test-server';
import { textReply, type ScriptedReply } from './provider-servers/scripted-reply';

/**
 * The model behind a real ACP agent (Claude, OpenCode) in tests: each main model call takes the next
 * scripted reply; the agent's side calls (a title for the conversation, a suggested next prompt) get
 * a short text, so they never take a reply meant for the turn. Give it to a provider test server as its
 * `fallbackReply`.
 */
export interface AgentModel {
  readonly answer: (request: RecordedRequest) => ScriptedReply;
  /** Replies for the next main model calls, in order. */
  script(...replies: ScriptedReply[]): void;
  /** The main model calls answered so far. */
  readonly calls: RecordedRequest[];
}

export function agentModel(): AgentModel {
  const queue: ScriptedReply[] = [];
  const calls: RecordedRequest[] = [];
  return {
    calls,
    script: (...replies) => void queue.push(...replies),
    answer(request) {
      if (isSideRequest(request)) return textReply('Herons', 1);
      calls.push(request);
      return queue.shift() ?? textReply('(the test scripted nothing more)', 1);
    },
  };
}

/** An agent's side call: a title for the conversation (OpenCode's title generator, Claude's `<session>` title), or Claude's next-prompt suggestion. */
function isSideRequest(request: RecordedRequest): boolean {
  const messages = asRecord(request.body).messages;
  if (!Array.isArray(messages)) return false;
  const first = JSON.stringify(messages[0] ?? null);
  const last = JSON.stringify(messages.at(-1) ?? null);
  return first.includes('title generator') || last.includes('Write the title') || last.includes('[SUGGESTION MODE');
}
