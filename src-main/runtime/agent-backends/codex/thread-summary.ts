import type { HistoryMessage } from '../../contract/agent-backend';

/** The transcript marker where a new Codex thread replaced one that could not be resumed. */
export const NEW_THREAD_MARKER = 'New Codex thread — earlier turns summarised';

const MESSAGE_CHARS = 1_500;
const TOTAL_CHARS = 24_000;

/**
 * The conversation so far, from Cairn's own record, as the first input of a new Codex thread that
 * replaces one Codex could not resume: what the person asked and what the agent answered, oldest
 * first; the newest turns are kept whole when the record is long.
 */
export function summariseForNewThread(
  history: readonly HistoryMessage[],
  request: { turnId: string; text: string },
): string {
  const lines: string[] = [];
  for (const message of history) {
    if (message.turnId === request.turnId && message.role === 'user') continue; // the request itself, said last
    const said =
      message.role === 'user'
        ? 'The person'
        : message.role === 'assistant'
          ? 'You'
          : message.role === 'tool_call'
            ? 'You ran'
            : null;
    if (said === null) continue;
    const text = message.role === 'tool_call' ? JSON.stringify(message.data?.input ?? message.text) : message.text;
    if (text.trim() === '') continue;
    lines.push(`${said}: ${clip(text.trim(), MESSAGE_CHARS)}`);
  }
  let kept = lines;
  while (kept.join('\n').length > TOTAL_CHARS && kept.length > 1) kept = kept.slice(1);
  const dropped = lines.length - kept.length;
  return [
    'This conversation continues from an earlier Codex thread that could not be resumed, so you start on a new thread. These are the earlier turns, from Cairn’s record of them (your own earlier tool results are not included):',
    ...(dropped > 0 ? [`(${dropped} older messages left out.)`] : []),
    ...kept,
    '',
    `The request now: ${request.text}`,
  ].join('\n');
}

function clip(text: string, chars: number): string {
  return text.length <= chars ? text : `${text.slice(0, chars)}…`;
}
