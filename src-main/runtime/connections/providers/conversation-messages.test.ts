import { describe, expect, it } from 'vitest';
import { toModelMessages } from './conversation-messages';

describe('toModelMessages', () => {
  it('maps tool results to JSON, and failed ones to error text', () => {
    const messages = toModelMessages(
      [
        {
          role: 'tool',
          results: [
            { toolCallId: 'a', toolName: 't', output: { rows: [1, 2] }, isError: false },
            { toolCallId: 'b', toolName: 't', output: undefined, isError: false },
            { toolCallId: 'c', toolName: 't', output: { code: 'ENOENT' }, isError: true },
            { toolCallId: 'd', toolName: 't', output: 'Permission denied', isError: true },
          ],
        },
      ],
      { replayReasoning: true },
    );
    expect(messages).toEqual([
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'a', toolName: 't', output: { type: 'json', value: { rows: [1, 2] } } },
          { type: 'tool-result', toolCallId: 'b', toolName: 't', output: { type: 'json', value: null } },
          {
            type: 'tool-result',
            toolCallId: 'c',
            toolName: 't',
            output: { type: 'error-text', value: '{"code":"ENOENT"}' },
          },
          {
            type: 'tool-result',
            toolCallId: 'd',
            toolName: 't',
            output: { type: 'error-text', value: 'Permission denied' },
          },
        ],
      },
    ]);
  });

  it('puts reasoning first, leaves out empty text, and leaves reasoning out when it cannot be replayed', () => {
    const assistant = {
      role: 'assistant' as const,
      text: '',
      reasoning: 'Hmm.',
      toolCalls: [{ toolCallId: 'x', toolName: 'ls', input: {} }],
    };
    expect(toModelMessages([assistant], { replayReasoning: true })).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'Hmm.' },
          { type: 'tool-call', toolCallId: 'x', toolName: 'ls', input: {} },
        ],
      },
    ]);
    expect(toModelMessages([assistant], { replayReasoning: false })).toEqual([
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'x', toolName: 'ls', input: {} }] },
    ]);
  });
});
