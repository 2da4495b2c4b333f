import { describe, expect, it } from 'vitest';
import type { ConversationMessage } from '../../connections/providers';
import { CONTINUE_INSTRUCTION, continuingPartialAnswer } from './continue-answer';

const partial: ConversationMessage[] = [
  { role: 'user', text: 'Write a poem' },
  { role: 'assistant', text: 'Roses are red,\n' },
];

describe('continuingPartialAnswer', () => {
  it('leaves a cut-off answer last for Anthropic to continue (a prefill without trailing whitespace)', () => {
    expect(continuingPartialAnswer(partial, 'anthropic')).toEqual([
      partial[0],
      { role: 'assistant', text: 'Roses are red,' },
    ]);
  });

  it.each(['openai', 'openai_compatible', 'ollama'] as const)(
    'asks %s explicitly to continue after the partial answer',
    (providerType) => {
      expect(continuingPartialAnswer(partial, providerType)).toEqual([
        ...partial,
        { role: 'user', text: CONTINUE_INSTRUCTION },
      ]);
    },
  );

  it('changes nothing when the turn ended before any text or on a tool call', () => {
    const noText: ConversationMessage[] = [{ role: 'user', text: 'Hi' }];
    const onTool: ConversationMessage[] = [
      ...noText,
      {
        role: 'assistant',
        text: 'Checking.',
        toolCalls: [{ toolCallId: 'c1', toolName: 'get_current_time', input: {} }],
      },
    ];
    expect(continuingPartialAnswer(noText, 'openai')).toEqual(noText);
    expect(continuingPartialAnswer(onTool, 'anthropic')).toEqual(onTool);
  });
});
