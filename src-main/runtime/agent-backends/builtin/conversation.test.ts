import { describe, expect, it } from 'vitest';
import type { HistoryMessage } from '../../contract/agent-backend';
import { conversationFromHistory } from './conversation';

const h = (
  role: HistoryMessage['role'],
  text: string,
  data: Record<string, unknown> | null = null,
): HistoryMessage => ({
  role,
  text,
  turnId: 't',
  runId: 'r',
  data,
});
const call = (id: string) =>
  h('tool_call', 'get_current_time', { toolCallId: id, toolName: 'get_current_time', input: { timeZone: 'UTC' } });
const result = (id: string) =>
  h('tool_result', 'get_current_time', {
    toolCallId: id,
    toolName: 'get_current_time',
    output: { iso: 'x' },
    isError: false,
  });

describe('conversationFromHistory', () => {
  it('pairs assistant tool calls with their results, in order', () => {
    expect(
      conversationFromHistory([
        h('user', 'time?'),
        h('assistant', 'Let me check. '),
        call('c1'),
        result('c1'),
        h('assistant', 'It is x.'),
      ]),
    ).toEqual([
      { role: 'user', text: 'time?' },
      {
        role: 'assistant',
        text: 'Let me check. ',
        toolCalls: [{ toolCallId: 'c1', toolName: 'get_current_time', input: { timeZone: 'UTC' } }],
      },
      {
        role: 'tool',
        results: [{ toolCallId: 'c1', toolName: 'get_current_time', output: { iso: 'x' }, isError: false }],
      },
      { role: 'assistant', text: 'It is x.' },
    ]);
  });

  it('groups parallel calls and their results', () => {
    const messages = conversationFromHistory([
      h('user', 'a'),
      call('c1'),
      call('c2'),
      result('c1'),
      result('c2'),
      h('user', 'b'),
    ]);
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(messages[2]).toMatchObject({ role: 'tool', results: [{ toolCallId: 'c1' }, { toolCallId: 'c2' }] });
  });

  it('closes a tool call left without a result (an interrupted run) with an error result', () => {
    const messages = conversationFromHistory([h('user', 'a'), call('c1'), h('user', 'resume please')]);
    expect(messages[2]).toEqual({
      role: 'tool',
      results: [
        {
          toolCallId: 'c1',
          toolName: 'get_current_time',
          output: { error: 'This tool call was interrupted before it returned a result.' },
          isError: true,
        },
      ],
    });
    expect(messages[3]).toEqual({ role: 'user', text: 'resume please' });
    expect(conversationFromHistory([h('user', 'a'), call('c9')]).at(-1)).toMatchObject({
      role: 'tool',
      results: [{ toolCallId: 'c9', isError: true }],
    });
  });

  it('attaches reasoning to the assistant message it preceded', () => {
    expect(conversationFromHistory([h('user', 'q'), h('reasoning', 'think'), h('assistant', 'answer')])).toEqual([
      { role: 'user', text: 'q' },
      { role: 'assistant', text: 'answer', reasoning: 'think' },
    ]);
  });
});
