import type { ConversationMessage, ProviderType } from '../../connections/providers';

/** Sent after a cut-off answer to the providers that cannot be asked to extend an assistant message. */
export const CONTINUE_INSTRUCTION =
  'Your previous answer (above) was cut off before it was finished. Continue it from exactly where it stopped: do not repeat any of it, do not start over, and do not comment on the interruption.';

/**
 * The conversation for a run that resumes a turn whose answer was cut off (stopped, failed or
 * interrupted mid-text): the partial answer is sent as the assistant's message so far, and the model
 * is asked to go on from there rather than answer again. Anthropic continues an assistant message
 * that ends the conversation (a prefill; its API refuses one ending in whitespace, so that is
 * trimmed). OpenAI, OpenAI-compatible servers and Ollama would start a fresh answer after it, so an
 * explicit instruction follows. Anything else (the turn ended on a tool call, or before any text) is
 * sent unchanged.
 */
export function continuingPartialAnswer(
  messages: readonly ConversationMessage[],
  providerType: ProviderType,
): ConversationMessage[] {
  const last = messages.at(-1);
  if (last === undefined || last.role !== 'assistant' || last.text.trim() === '' || (last.toolCalls?.length ?? 0) > 0)
    return [...messages];
  if (providerType === 'anthropic') return [...messages.slice(0, -1), { ...last, text: last.text.trimEnd() }];
  return [...messages, { role: 'user', text: CONTINUE_INSTRUCTION }];
}
