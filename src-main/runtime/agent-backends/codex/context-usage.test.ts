import { describe, expect, it } from 'vitest';
import { contextMeterOf } from './context-usage';

const usage = (modelContextWindow: number | null) => ({
  threadId: 't',
  turnId: 'u',
  tokenUsage: {
    total: {
      totalTokens: 900,
      inputTokens: 800,
      cachedInputTokens: 0,
      cacheWriteInputTokens: 0,
      outputTokens: 100,
      reasoningOutputTokens: 0,
    },
    last: {
      totalTokens: 150,
      inputTokens: 120,
      cachedInputTokens: 20,
      cacheWriteInputTokens: 0,
      outputTokens: 30,
      reasoningOutputTokens: 5,
    },
    modelContextWindow,
  },
});

describe("contextMeterOf: Codex's token usage as the header's context meter", () => {
  it('is the latest request and answer against the window Codex reports', () => {
    expect(contextMeterOf('thread/tokenUsage/updated', usage(258_400), 'gpt-5.5')).toEqual({
      used: 150,
      contextWindow: 258_400,
      outputReserve: 0,
      windowSource: 'reported',
      breakdown: { system: 0, summary: 0, messages: 0, toolOutput: 0 },
      trimmed: false,
      modelId: 'gpt-5.5',
    });
  });

  it('is nothing without a window, for another message, or for a malformed one', () => {
    expect(contextMeterOf('thread/tokenUsage/updated', usage(null), 'gpt-5.5')).toBeNull();
    expect(contextMeterOf('turn/started', usage(258_400), 'gpt-5.5')).toBeNull();
    expect(contextMeterOf('thread/tokenUsage/updated', { turnId: 'u' }, 'gpt-5.5')).toBeNull();
  });
});
