import type { HistoryMessage } from '../contract/agent-backend';

/** What the session's model is told when it summarises the older part of a conversation. */
export const SUMMARY_SYSTEM_PROMPT = [
  'You summarise the earlier part of a conversation between a person and an AI agent working in Cairn,',
  'so the agent can continue the work without the full transcript. Write plain Markdown with these headings:',
  '**What was asked**, **What was decided**, **What was done**, **Files touched**, **Open items**.',
  'Keep names, paths, numbers, commands and decisions exact. Leave out greetings and repetition.',
  'If an earlier summary is given, fold it in: your summary replaces it and must keep what still matters from it.',
].join(' ');

/** How much of one tool input or output the summary request carries. */
const TOOL_INPUT_CHARS = 600;
const TOOL_OUTPUT_CHARS = 1_500;

function clip(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)} … (${text.length - limit} more characters)`;
}

function json(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null');
}

/** One message as the summary request shows it; null for what it leaves out (reasoning). */
export function renderForSummary(message: HistoryMessage): string | null {
  switch (message.role) {
    case 'user':
      return `Person: ${message.text}`;
    case 'assistant':
      return `Agent: ${message.text}`;
    case 'reasoning':
      return null;
    case 'tool_call':
      return `Agent called ${String(message.data?.toolName ?? message.text)} with ${clip(json(message.data?.input ?? null), TOOL_INPUT_CHARS)}`;
    case 'tool_result':
      return `${String(message.data?.toolName ?? message.text)} ${message.data?.isError === true ? 'failed' : 'returned'}: ${clip(json(message.data?.output ?? null), TOOL_OUTPUT_CHARS)}`;
  }
}

/** The user message of a summary request: the earlier summary, if any, then the part to summarise. */
export function summaryPrompt(previous: string | null, lines: readonly string[]): string {
  const earlier = previous === null ? '' : `Earlier summary (fold it in):\n${previous}\n\n`;
  return `${earlier}Conversation to summarise:\n${lines.join('\n')}\n\nWrite the summary now.`;
}
