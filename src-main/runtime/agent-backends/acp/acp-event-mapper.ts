import type { ContentBlock, SessionUpdate, ToolCallContent, ToolCallUpdate } from '@agentclientprotocol/sdk';
import type { AgentEvent } from '../../contract/agent-backend';

/** The tool name a Cairn transcript gives an ACP tool call: `acp.<kind>` (edit, read, execute, …). */
export function acpToolName(kind: string | null | undefined): string {
  return `acp.${kind ?? 'other'}`;
}

/** The tool name of the agent's plan card, and its call id: one card per turn, its latest result the plan as it stands. */
export const ACP_PLAN_TOOL = 'acp.plan';
export const ACP_PLAN_CALL_ID = 'acp-plan';

interface KnownCall {
  title: string;
  kind: string | null;
  rawInput: unknown;
  content: ToolCallContent[];
}

/**
 * `session/update` → Cairn agent events. Message and thought chunks stream as text and reasoning; a
 * tool call is recorded once it runs (or when an approval card records it), and its result once, when
 * it completes or fails. A plan is one card per turn (an `acp.plan` call recorded with the first plan,
 * then a result for every plan the agent sends, the latest standing). Mode and command lists are not shown.
 */
export class AcpEventMapper {
  private readonly calls = new Map<string, KnownCall>();
  private readonly recordedCalls = new Set<string>();
  private readonly settledCalls = new Set<string>();
  private planShown = false;

  /** The call was recorded by an approval card; its result is still to come. */
  markRecorded(toolCallId: string): void {
    this.recordedCalls.add(toolCallId);
  }

  /** The call's result was recorded by the person's answer (a rejection): the agent's own end is not recorded again. */
  markSettled(toolCallId: string): void {
    this.settledCalls.add(toolCallId);
  }

  /** A terminal the agent opened, as a call of Cairn's shell view, unless its approval card recorded it. */
  terminalCall(toolCallId: string, toolName: string, input: Record<string, unknown>): AgentEvent[] {
    if (this.recordedCalls.has(toolCallId)) return [];
    this.recordedCalls.add(toolCallId);
    return [{ type: 'tool_call', toolCallId, toolName, input }];
  }

  /** A call as the approval card shows it (merging what the permission request says). */
  callOf(update: ToolCallUpdate): {
    toolCallId: string;
    toolName: string;
    input: Record<string, unknown>;
    title: string;
    content: ToolCallContent[];
  } {
    const known = this.merge(update);
    return {
      toolCallId: update.toolCallId,
      toolName: acpToolName(known.kind),
      input: inputOf(known),
      title: known.title,
      content: known.content,
    };
  }

  map(update: SessionUpdate): AgentEvent[] {
    switch (update.sessionUpdate) {
      case 'agent_message_chunk': {
        const text = textOf(update.content);
        return text === '' ? [] : [{ type: 'text_delta', text }];
      }
      case 'agent_thought_chunk': {
        const text = textOf(update.content);
        return text === '' ? [] : [{ type: 'reasoning_delta', text }];
      }
      case 'tool_call':
      case 'tool_call_update': {
        const known = this.merge(update);
        const status = update.status ?? null;
        if (status === null || status === 'pending') return [];
        const events = this.callOnce(update.toolCallId, known);
        if ((status === 'completed' || status === 'failed') && !this.settledCalls.has(update.toolCallId)) {
          this.settledCalls.add(update.toolCallId);
          const output = {
            status,
            content: known.content.map(contentText).filter((text) => text !== ''),
            ...(update.rawOutput === undefined ? {} : { rawOutput: update.rawOutput }),
          };
          events.push({
            type: 'tool_result',
            toolCallId: update.toolCallId,
            toolName: acpToolName(known.kind),
            output,
            isError: status === 'failed',
          });
        }
        return events;
      }
      case 'plan': {
        const entries = update.entries.map(({ content, priority, status }) => ({ content, priority, status }));
        const events: AgentEvent[] = [];
        if (!this.planShown) {
          this.planShown = true;
          events.push({
            type: 'tool_call',
            toolCallId: ACP_PLAN_CALL_ID,
            toolName: ACP_PLAN_TOOL,
            input: { title: 'Plan', entries },
          });
        }
        events.push({
          type: 'tool_result',
          toolCallId: ACP_PLAN_CALL_ID,
          toolName: ACP_PLAN_TOOL,
          output: { entries },
          isError: false,
        });
        return events;
      }
      default:
        return [];
    }
  }

  private merge(update: ToolCallUpdate | Extract<SessionUpdate, { sessionUpdate: 'tool_call' }>): KnownCall {
    const known = this.calls.get(update.toolCallId) ?? {
      title: 'Tool call',
      kind: null,
      rawInput: undefined,
      content: [],
    };
    if (typeof update.title === 'string') known.title = update.title;
    if (update.kind != null) known.kind = update.kind;
    if (update.rawInput !== undefined) known.rawInput = update.rawInput;
    if (update.content != null) known.content = update.content;
    this.calls.set(update.toolCallId, known);
    return known;
  }

  private callOnce(toolCallId: string, known: KnownCall): AgentEvent[] {
    if (this.recordedCalls.has(toolCallId)) return [];
    this.recordedCalls.add(toolCallId);
    return [{ type: 'tool_call', toolCallId, toolName: acpToolName(known.kind), input: inputOf(known) }];
  }
}

function inputOf(known: KnownCall): Record<string, unknown> {
  const diffs = known.content
    .filter((item) => item.type === 'diff')
    .map((item) => ({ path: item.path, oldText: item.oldText ?? null, newText: item.newText }));
  return {
    title: known.title,
    ...(known.rawInput === undefined ? {} : { rawInput: known.rawInput }),
    ...(diffs.length === 0 ? {} : { diffs }),
  };
}

function textOf(block: ContentBlock): string {
  return block.type === 'text' ? block.text : '';
}

function contentText(item: ToolCallContent): string {
  if (item.type === 'content') return textOf(item.content);
  if (item.type === 'diff') return `Edited ${item.path}`;
  return '';
}
