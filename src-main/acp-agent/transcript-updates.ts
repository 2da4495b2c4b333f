import type { SessionUpdate, ToolKind } from '@agentclientprotocol/sdk';
import type { TranscriptItem, TranscriptItemKind } from '../../src-shared/model';

/** How Cairn's transcript reads to an ACP client: each item as the `session/update` it becomes. */

/** What a tool of Cairn's built-in agent does, in ACP's words (the editor picks an icon by it). */
const TOOL_KINDS: Readonly<Record<string, ToolKind>> = {
  read_file: 'read',
  write_file: 'edit',
  edit_file: 'edit',
  list_files: 'search',
  glob: 'search',
  grep: 'search',
  run_shell: 'execute',
  recall: 'search',
};

/** A tool result longer than this reaches the editor cut, saying so (the whole of it stays in Cairn). */
const MAX_RESULT_CHARS = 20_000;

/**
 * Where an item reaching the editor comes from: replayed from Cairn's record (`session/load`), live
 * from the editor's own `session/prompt`, or live from a turn started elsewhere (Cairn's window, a
 * goal, an automation, another editor).
 */
export type UpdateSource = 'replay' | 'own_prompt' | 'elsewhere';

/**
 * The update an item becomes when it appears; null for what an editor has no place for (proposals)
 * and for the person's own message while their prompt runs (the editor shows it already).
 */
export function updateForItem(item: TranscriptItem, source: UpdateSource): SessionUpdate | null {
  const replay = source === 'replay';
  switch (item.kind) {
    case 'user_message':
      return source !== 'own_prompt' && item.text !== ''
        ? textChunk('user_message_chunk', item.text, item.itemId)
        : null;
    case 'assistant_message':
    case 'notice':
      return item.text === '' ? null : textChunk('agent_message_chunk', item.text, item.itemId);
    case 'reasoning':
      return item.text === '' ? null : textChunk('agent_thought_chunk', item.text, item.itemId);
    case 'tool_call':
      return toolCall(item, replay);
    case 'tool_result':
      return toolResult(item);
    case 'proposal':
      return null;
  }
}

/** More text of a streaming item, as the chunk its kind streams as; null for kinds that do not stream text. */
export function updateForDelta(kind: TranscriptItemKind, itemId: string, text: string): SessionUpdate | null {
  if (text === '') return null;
  if (kind === 'assistant_message' || kind === 'notice') return textChunk('agent_message_chunk', text, itemId);
  if (kind === 'reasoning') return textChunk('agent_thought_chunk', text, itemId);
  return null;
}

function textChunk(
  sessionUpdate: 'user_message_chunk' | 'agent_message_chunk' | 'agent_thought_chunk',
  text: string,
  messageId: string,
): SessionUpdate {
  return { sessionUpdate, messageId, content: { type: 'text', text } };
}

function toolCall(item: TranscriptItem, replay: boolean): SessionUpdate | null {
  const toolCallId = stringField(item.data, 'toolCallId');
  if (toolCallId === null) return null;
  const toolName = stringField(item.data, 'toolName') ?? 'tool';
  const input = item.data?.input;
  const path = typeof input === 'object' && input !== null ? stringField(input, 'path') : null;
  return {
    sessionUpdate: 'tool_call',
    toolCallId,
    title: toolTitle(toolName, input),
    kind: TOOL_KINDS[toolName] ?? 'other',
    // Replayed from the record, the call's status comes with its result right after.
    status: replay ? 'pending' : 'in_progress',
    rawInput: input,
    ...(path === null ? {} : { locations: [{ path }] }),
  };
}

function toolResult(item: TranscriptItem): SessionUpdate | null {
  const toolCallId = stringField(item.data, 'toolCallId');
  if (toolCallId === null) return null;
  const output = item.data?.output;
  const text = typeof output === 'string' ? output : output === undefined ? item.text : JSON.stringify(output, null, 2);
  const shown =
    text.length > MAX_RESULT_CHARS ? `${text.slice(0, MAX_RESULT_CHARS)}\n… (cut; the rest is in Cairn)` : text;
  return {
    sessionUpdate: 'tool_call_update',
    toolCallId,
    status: item.data?.isError === true ? 'failed' : 'completed',
    ...(shown === '' ? {} : { content: [{ type: 'content', content: { type: 'text', text: shown } }] }),
  };
}

/** "run_shell: npm test", "read_file: src/app.ts": the tool and what it works on. */
export function toolTitle(toolName: string, input: unknown): string {
  if (typeof input !== 'object' || input === null) return toolName;
  const subject = stringField(input, 'command') ?? stringField(input, 'path') ?? stringField(input, 'pattern') ?? null;
  return subject === null ? toolName : `${toolName}: ${subject.length > 120 ? `${subject.slice(0, 117)}…` : subject}`;
}

function stringField(value: object | null | undefined, key: string): string | null {
  if (value === null || value === undefined) return null;
  const field = (value as Record<string, unknown>)[key];
  return typeof field === 'string' ? field : null;
}
