import type { TranscriptItem, TranscriptItemKind } from '../../../src-shared/model';
import type { HistoryMessage } from '../contract/agent-backend';

const HISTORY_ROLES: Record<TranscriptItemKind, HistoryMessage['role'] | null> = {
  user_message: 'user',
  assistant_message: 'assistant',
  reasoning: 'reasoning',
  tool_call: 'tool_call',
  tool_result: 'tool_result',
  proposal: null,
  notice: null,
};

/** Unmasks a tool result whose transcript copy is masked (a secret answer). */
export type RevealToolOutput = (data: Readonly<Record<string, unknown>>) => unknown;

/** What a transcript item says to the model, or null for items the model never sees (notices, proposals), except a hook's context. */
export function historyMessageOf(item: TranscriptItem, reveal?: RevealToolOutput): HistoryMessage | null {
  // A hook's notice that speaks to the model (added context, a Stop hook's reason) reads as a user message.
  const hookContext = item.kind === 'notice' ? item.data?.hookContext : undefined;
  if (typeof hookContext === 'string')
    return { role: 'user', text: hookContext, turnId: item.turnId, runId: item.runId, data: null };
  const role = HISTORY_ROLES[item.kind];
  if (role === null) return null;
  const data =
    item.kind === 'tool_result' && item.data?.masked === true && reveal !== undefined
      ? { ...item.data, output: reveal(item.data) }
      : item.data;
  return { role, text: item.text, turnId: item.turnId, runId: item.runId, data };
}
