import type { TranscriptStore } from '../../storage/transcript-store';
import type { HistoryMessage } from '../contract/agent-backend';
import { historyMessageOf, type RevealToolOutput } from '../context/history-items';

/**
 * The longest text a message of an earlier turn keeps in a run's history, and the longest string in an
 * earlier tool call's input. Backends read earlier turns only to summarise them (Codex's new thread:
 * 1,500 characters a message or call; an ACP agent's new session: 2,000 of each message, and neither
 * reads earlier tool results), and a live run holds its history until it ends: whole, the history of
 * a session of long answers, child agents' reports and command output is megabytes per running
 * session, growing with the session (the built-in agent reads its context from the record itself,
 * not from this).
 */
export const EARLIER_TURN_TEXT_CHARS = 4_000;

/** The newest transcript items a run's history is made of. */
const HISTORY_ITEMS = 400;

/**
 * A run's history from the newest items of its session: this turn's messages whole; earlier turns'
 * text cut, their tool results without output (nor a secret answer unmasked), long strings in their
 * tool calls' input cut.
 */
export function runHistory(
  transcript: Pick<TranscriptStore, 'page'>,
  sessionId: string,
  turnId: string,
  reveal?: RevealToolOutput,
): HistoryMessage[] {
  return transcript.page(sessionId, null, HISTORY_ITEMS).flatMap((item) => {
    if (item.turnId === turnId) {
      const message = historyMessageOf(item, reveal);
      return message === null ? [] : [message];
    }
    const message = historyMessageOf(item);
    return message === null ? [] : [earlierTurnMessage(message)];
  });
}

function earlierTurnMessage(message: HistoryMessage): HistoryMessage {
  const text =
    message.text.length <= EARLIER_TURN_TEXT_CHARS
      ? message.text
      : `${cutString(message.text)} (${message.text.length - EARLIER_TURN_TEXT_CHARS} more characters left out)`;
  if (message.data === null) return { ...message, text };
  if (message.role === 'tool_result') {
    const { output: _leftOut, ...data } = message.data;
    return { ...message, text, data };
  }
  if (message.role === 'tool_call')
    return { ...message, text, data: { ...message.data, input: cutStrings(message.data.input) } };
  return { ...message, text };
}

/** `value` with every string longer than EARLIER_TURN_TEXT_CHARS cut (a file's content in a write call, say). */
function cutStrings(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.length <= EARLIER_TURN_TEXT_CHARS ? value : cutString(value);
  if (typeof value !== 'object' || value === null || depth > 8) return value;
  if (Array.isArray(value)) return value.map((entry: unknown) => cutStrings(entry, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, cutStrings(entry, depth + 1)]));
}

function cutString(text: string): string {
  return `${copyOf(text.slice(0, EARLIER_TURN_TEXT_CHARS))}…`;
}

/**
 * A string of its own: V8 makes a long `slice` a view that keeps the whole original alive, so the cut
 * text would hold the full answer all the same (seen in the endurance run's heap snapshots).
 */
function copyOf(text: string): string {
  return Buffer.from(text, 'utf16le').toString('utf16le');
}
