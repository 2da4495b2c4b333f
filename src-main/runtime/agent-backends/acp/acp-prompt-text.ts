import type { AgentRunInput, HistoryMessage } from '../../contract/agent-backend';

/** What an ACP agent is told each turn: the request, how an interrupted attempt or an approval lost in a restart goes on, a summary for a new agent session. */

export interface PersonAnswer {
  readonly toolCallId: string;
  readonly approved: boolean;
  readonly reason: string | null;
  readonly call: HistoryMessage | null;
}

/** The approval this continuation run carries: approved (`approvedToolCall`), or rejected (the turn's last tool result). */
export function answerOf(input: AgentRunInput): PersonAnswer | null {
  const callOf = (toolCallId: string) =>
    [...input.history]
      .reverse()
      .find((message) => message.role === 'tool_call' && message.data?.toolCallId === toolCallId) ?? null;
  if (input.approvedToolCall !== null)
    return {
      toolCallId: input.approvedToolCall.toolCallId,
      approved: true,
      reason: null,
      call: callOf(input.approvedToolCall.toolCallId),
    };
  const last = [...input.history]
    .reverse()
    .find((message) => message.turnId === input.turnId && message.role !== 'reasoning');
  if (last?.role !== 'tool_result' || last.data === null || typeof last.data.toolCallId !== 'string') return null;
  const output = last.data.output;
  const reason =
    typeof output === 'object' && output !== null && 'reason' in output && typeof output.reason === 'string'
      ? output.reason
      : null;
  return { toolCallId: last.data.toolCallId, approved: false, reason, call: callOf(last.data.toolCallId) };
}

/** What the agent is told this turn: the request; how an interrupted attempt or a lost request goes on; a summary for a new agent session. */
export function promptText(input: AgentRunInput, answer: PersonAnswer | null, summarise: boolean, lost = true): string {
  const earlier = input.history.filter((message) => message.turnId !== input.turnId);
  const summary = summarise ? `${summaryOf(earlier, lost)}\n\n` : '';
  if (answer !== null) {
    const title =
      typeof answer.call?.data?.input === 'object' &&
      answer.call.data.input !== null &&
      'title' in answer.call.data.input
        ? String(answer.call.data.input.title)
        : 'your tool call';
    const intro =
      'Cairn restarted while your permission request waited for the person, so that request is gone. Their answer:';
    return answer.approved
      ? `${summary}${intro} they allowed "${title}". It has not been done yet: do it now and continue.`
      : `${summary}${intro} they rejected "${title}".${answer.reason === null ? '' : ` Their reason: ${answer.reason}`} Do not do it; continue without it.`;
  }
  // Refused before it began (the person had to sign in first): the agent never saw the request.
  if (input.resume !== null && input.resume.reason !== 'agent_auth_required') {
    return `${summary}Your previous attempt at this request ended early (${input.resume.reason ?? input.resume.previousStatus}). Continue from where it stopped; do not start over or repeat what you already did.\n\nThe request: ${input.text}`;
  }
  return `${summary}${input.text}`;
}

/** Cairn's record of the conversation, for an agent session that starts without it (its earlier one `lost`, or a branch's first). */
function summaryOf(history: readonly HistoryMessage[], lost: boolean): string {
  const lines = history
    .filter((message) => message.role === 'user' || message.role === 'assistant')
    .slice(-20)
    .map((message) => `${message.role === 'user' ? 'Person' : 'You'}: ${message.text.slice(0, 2000)}`);
  const why = lost ? 'your earlier session could not be reloaded' : 'this conversation began before this agent session';
  return `(Cairn: ${why}. The conversation so far, from Cairn's record:\n${lines.join('\n')}\n)`;
}
