import { attachmentRefsIn, type AttachmentRef } from '../../../../src-shared/attachment-model';
import type { ConversationMessage, ModelAttachment } from '../../connections/providers';
import type { HistoryMessage } from '../../contract/agent-backend';

/** Reads an attachment's content for the model. */
export type AttachmentLoader = (ref: AttachmentRef) => ModelAttachment;

export type { ConversationMessage } from '../../connections/providers';

type ToolCall = { toolCallId: string; toolName: string; input: unknown };
type ToolResult = { toolCallId: string; toolName: string; output: unknown; isError: boolean };

const INTERRUPTED_RESULT = { error: 'This tool call was interrupted before it returned a result.' };

/**
 * Rebuilds the model conversation from the transcript: user messages, assistant text with its tool
 * calls, and tool results. A tool call left without a result (the run was interrupted or stopped) gets
 * an explicit error result, so providers never see a dangling call.
 */
export function conversationFromHistory(
  history: readonly HistoryMessage[],
  loadAttachment?: AttachmentLoader,
): ConversationMessage[] {
  const messages: ConversationMessage[] = [];
  let text = '';
  let reasoning = '';
  let calls: ToolCall[] = [];
  let results: ToolResult[] = [];

  const flushAssistant = () => {
    if (text === '' && calls.length === 0) {
      reasoning = '';
      return;
    }
    messages.push({
      role: 'assistant',
      text,
      ...(reasoning === '' ? {} : { reasoning }),
      ...(calls.length === 0 ? {} : { toolCalls: calls }),
    });
    const pending = calls;
    text = '';
    reasoning = '';
    calls = [];
    return pending;
  };
  const flushResults = (pending: readonly ToolCall[]) => {
    const answered = new Set(results.map((result) => result.toolCallId));
    const missing = pending.filter((call) => !answered.has(call.toolCallId));
    const all = [
      ...results,
      ...missing.map((call) => ({
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        output: INTERRUPTED_RESULT,
        isError: true,
      })),
    ];
    if (all.length > 0) messages.push({ role: 'tool', results: all });
    results = [];
  };

  let awaiting: ToolCall[] = [];
  for (const message of history) {
    switch (message.role) {
      case 'user':
        awaiting = [...awaiting, ...(flushAssistant() ?? [])];
        flushResults(awaiting);
        awaiting = [];
        messages.push(userMessage(message, loadAttachment));
        break;
      case 'assistant':
        if (results.length > 0 || awaiting.length > 0) {
          flushResults(awaiting);
          awaiting = [];
        }
        text += message.text;
        break;
      case 'reasoning':
        reasoning += message.text;
        break;
      case 'tool_call': {
        const data = message.data ?? {};
        calls.push({ toolCallId: String(data.toolCallId), toolName: String(data.toolName), input: data.input ?? {} });
        break;
      }
      case 'tool_result': {
        awaiting = [...awaiting, ...(flushAssistant() ?? [])];
        const data = message.data ?? {};
        results.push({
          toolCallId: String(data.toolCallId),
          toolName: String(data.toolName),
          output: data.output ?? null,
          isError: data.isError === true,
        });
        break;
      }
    }
  }
  awaiting = [...awaiting, ...(flushAssistant() ?? [])];
  flushResults(awaiting);
  return messages;
}

/** A user message, with the files attached to it when there were any (and a loader to read them). */
function userMessage(message: HistoryMessage, loadAttachment: AttachmentLoader | undefined): ConversationMessage {
  const refs = loadAttachment === undefined ? [] : attachmentRefsIn(message.data);
  if (loadAttachment === undefined || refs.length === 0) return { role: 'user', text: message.text };
  return { role: 'user', text: message.text, attachments: refs.map(loadAttachment) };
}
