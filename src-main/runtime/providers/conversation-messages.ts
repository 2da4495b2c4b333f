import type { JSONValue, ModelMessage } from 'ai';
import type { ConversationMessage, ModelToolResult } from './provider-types';

export interface MessageOptions {
  /**
   * Whether earlier reasoning is sent back. Anthropic accepts it only with the signature it issued,
   * which the conversation does not keep, so for Anthropic it is left out (the SDK would drop it
   * with a warning).
   */
  readonly replayReasoning: boolean;
}

/**
 * The conversation in the AI SDK's message shape: assistant turns carry their reasoning and
 * tool-call parts; tool results travel as JSON, or as error text when the tool failed.
 */
export function toModelMessages(messages: readonly ConversationMessage[], options: MessageOptions): ModelMessage[] {
  return messages.map((message): ModelMessage => {
    switch (message.role) {
      case 'user':
        return { role: 'user', content: message.text };
      case 'assistant':
        return {
          role: 'assistant',
          content: [
            ...(!options.replayReasoning || message.reasoning === undefined || message.reasoning === '' ? [] : [{ type: 'reasoning' as const, text: message.reasoning }]),
            ...(message.text === '' ? [] : [{ type: 'text' as const, text: message.text }]),
            ...(message.toolCalls ?? []).map((call) => ({ type: 'tool-call' as const, toolCallId: call.toolCallId, toolName: call.toolName, input: call.input })),
          ],
        };
      case 'tool':
        return { role: 'tool', content: message.results.map((result) => ({ type: 'tool-result' as const, toolCallId: result.toolCallId, toolName: result.toolName, output: outputOf(result) })) };
    }
  });
}

function outputOf(result: ModelToolResult): { type: 'json'; value: JSONValue } | { type: 'error-text'; value: string } {
  if (result.isError) return { type: 'error-text', value: typeof result.output === 'string' ? result.output : JSON.stringify(result.output) ?? 'The tool failed.' };
  return { type: 'json', value: toJsonValue(result.output) };
}

/** `value` as JSON would carry it (undefined becomes null; non-JSON values are dropped the way JSON.stringify drops them). */
function toJsonValue(value: unknown): JSONValue {
  if (value === undefined) return null;
  return JSON.parse(JSON.stringify(value) ?? 'null') as JSONValue;
}
