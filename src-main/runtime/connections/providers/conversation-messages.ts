import type { ImagePart, JSONValue, ModelMessage, TextPart } from 'ai';
import type { ConversationMessage, ModelAttachment, ModelToolResult } from './provider-types';

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
        if (message.attachments === undefined || message.attachments.length === 0)
          return { role: 'user', content: message.text };
        return {
          role: 'user',
          content: [{ type: 'text', text: message.text }, ...message.attachments.map(attachmentPart)],
        };
      case 'assistant':
        return {
          role: 'assistant',
          content: [
            ...(!options.replayReasoning || message.reasoning === undefined || message.reasoning === ''
              ? []
              : [{ type: 'reasoning' as const, text: message.reasoning }]),
            ...(message.text === '' ? [] : [{ type: 'text' as const, text: message.text }]),
            ...(message.toolCalls ?? []).map((call) => ({
              type: 'tool-call' as const,
              toolCallId: call.toolCallId,
              toolName: call.toolName,
              input: call.input,
            })),
          ],
        };
      case 'tool':
        return {
          role: 'tool',
          content: message.results.map((result) => ({
            type: 'tool-result' as const,
            toolCallId: result.toolCallId,
            toolName: result.toolName,
            output: outputOf(result),
          })),
        };
    }
  });
}

/** A text file travels as a fenced block named by its file; an image as an image part. */
function attachmentPart(attachment: ModelAttachment): TextPart | ImagePart {
  switch (attachment.kind) {
    case 'image':
      // As base64 text: every provider package takes it, while the Ollama one would send raw bytes as a JSON object.
      return { type: 'image', image: Buffer.from(attachment.data).toString('base64'), mediaType: attachment.mediaType };
    case 'text': {
      const longestRun = Math.max(2, ...[...attachment.text.matchAll(/`+/g)].map((match) => match[0].length));
      const fence = '`'.repeat(longestRun + 1);
      return { type: 'text', text: `Attached file ${attachment.name}:\n${fence}\n${attachment.text}\n${fence}` };
    }
    case 'missing':
      return {
        type: 'text',
        text: `(The attached file ${attachment.name} is no longer stored, so its content cannot be shown.)`,
      };
  }
}

function outputOf(result: ModelToolResult): { type: 'json'; value: JSONValue } | { type: 'error-text'; value: string } {
  if (result.isError)
    return {
      type: 'error-text',
      value: typeof result.output === 'string' ? result.output : (JSON.stringify(result.output) ?? 'The tool failed.'),
    };
  return { type: 'json', value: toJsonValue(result.output) };
}

/** `value` as JSON would carry it (undefined becomes null; non-JSON values are dropped the way JSON.stringify drops them). */
function toJsonValue(value: unknown): JSONValue {
  if (value === undefined) return null;
  return JSON.parse(JSON.stringify(value) ?? 'null') as JSONValue;
}
