import { inputItemsOf } from './openai-responses-server';
import type { RecordedRequest } from './provider-test-server';
import { textReply, toolCallReply, type ScriptedStream } from './scripted-reply';

/** One tool call a tool-loop model asks for. */
export interface LoopToolCall {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}

/**
 * A model that works through `calls` the way a real one reads its prompt, for the Responses API
 * (Codex): each request is answered with the first call whose result the request does not carry yet
 * (a `function_call_output` or `custom_tool_call_output` with its `call_id`), and once every result is
 * in, with `finalText`. The answer depends on the request alone, not on how many came before, so a
 * request the client makes besides the turn's own (a retry of the same step, one made for another
 * purpose) gets the answer its content calls for and never makes a later step be skipped, as an
 * ordered queue of replies would.
 */
export function toolLoopModel(
  calls: readonly LoopToolCall[],
  finalText: string,
): (request: RecordedRequest) => ScriptedStream {
  return (request) => {
    const answered = new Set(
      inputItemsOf(request.body)
        .filter((item) => item.type === 'function_call_output' || item.type === 'custom_tool_call_output')
        .map((item) => item.call_id),
    );
    const next = calls.find((call) => !answered.has(call.id));
    return next === undefined ? textReply(finalText) : toolCallReply(next);
  };
}
