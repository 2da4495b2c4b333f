import type { TranscriptStore } from '../../storage/transcript-store';
import type { HistoryMessage } from '../contract/agent-backend';
import { historyMessageOf, type RevealToolOutput } from '../context/history-items';

/**
 * The longest text a message of an earlier turn keeps in a run's history. Backends read earlier turns
 * only to summarise them (Codex's new thread: 1,500 characters a message; an ACP agent's new session:
 * 2,000), and a live run holds its history until it ends: whole, the history of a session of long
 * answers is megabytes per running session, growing with the session (the built-in agent reads its
 * context from the record itself, not from this).
 */
export const EARLIER_TURN_TEXT_CHARS = 4_000;

/** The newest transcript items a run's history is made of. */
const HISTORY_ITEMS = 400;

/** A run's history from the newest items of its session: this turn's messages whole, earlier ones' text cut. */
export function runHistory(
  transcript: Pick<TranscriptStore, 'page'>,
  sessionId: string,
  turnId: string,
  reveal?: RevealToolOutput,
): HistoryMessage[] {
  return transcript.page(sessionId, null, HISTORY_ITEMS).flatMap((item) => {
    const message = historyMessageOf(item, reveal);
    if (message === null) return [];
    if (message.turnId === turnId || message.text.length <= EARLIER_TURN_TEXT_CHARS) return [message];
    const cut = copyOf(message.text.slice(0, EARLIER_TURN_TEXT_CHARS));
    return [{ ...message, text: `${cut}… (${message.text.length - cut.length} more characters left out)` }];
  });
}

/**
 * A string of its own: V8 makes a long `slice` a view that keeps the whole original alive, so the cut
 * text would hold the full answer all the same (seen in the endurance run's heap snapshots).
 */
function copyOf(text: string): string {
  return Buffer.from(text, 'utf16le').toString('utf16le');
}
