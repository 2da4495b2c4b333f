import { asRecord } from './json-record';
import type { RecordedRequest } from './provider-test-server';
import { textReply, type ScriptedStream } from './scripted-reply';

/**
 * A reply that reads its prompt the way a real model does when asked to go on after a cut-off answer:
 * if the request carries a prefix of `answer` as the assistant's message so far — followed by an
 * instruction to continue, or, where the provider honours it (Anthropic), as a prefill that ends the
 * conversation — it streams the rest of `answer`; otherwise it starts over and streams all of it.
 * For OpenAI-, Anthropic- and Ollama-style bodies (`messages` with `role` and `content`).
 */
export function continuingModel(
  answer: string,
  options: { honoursPrefill: boolean; chunks?: number },
): (request: RecordedRequest) => ScriptedStream {
  return (request) => {
    const messages = Array.isArray(asRecord(request.body).messages)
      ? (asRecord(request.body).messages as unknown[]).map(asRecord)
      : [];
    const last = messages.at(-1);
    const before = messages.at(-2);
    let soFar: string | null = null;
    if (last?.role === 'assistant' && options.honoursPrefill) soFar = textOf(last.content);
    else if (last?.role === 'user' && before?.role === 'assistant' && /\bcontinue\b/i.test(textOf(last.content)))
      soFar = textOf(before.content);
    const rest = soFar !== null && soFar !== '' && answer.startsWith(soFar) ? answer.slice(soFar.length) : answer;
    return textReply(rest, options.chunks ?? 3);
  };
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return Array.isArray(content) ? content.map((part) => String(asRecord(part).text ?? '')).join('') : '';
}
