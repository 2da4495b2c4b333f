import { describe, expect, it } from 'vitest';
import { DEFAULT_MODEL_WINDOW, inputBudgetOf, modelWindowOf } from './model-windows';

describe('model windows', () => {
  it('knows OpenAI, Anthropic and common open models, by the last segment of the id', () => {
    expect(modelWindowOf('openai', 'gpt-4o-mini')).toEqual({
      contextWindow: 128_000,
      outputReserve: 16_384,
      source: 'known',
    });
    expect(modelWindowOf('anthropic', 'claude-sonnet-4-5').contextWindow).toBe(200_000);
    expect(modelWindowOf('openai_compatible', 'meta-llama/llama3.1:8b').contextWindow).toBe(128_000);
    expect(modelWindowOf('ollama', 'llama3:8b').contextWindow).toBe(8_192);
  });

  it('prefers the person’s override, then the context length Ollama reports', () => {
    expect(modelWindowOf('openai', 'gpt-4o', { override: { contextWindow: 9_000, outputReserve: 1_000 } })).toEqual({
      contextWindow: 9_000,
      outputReserve: 1_000,
      source: 'override',
    });
    expect(modelWindowOf('ollama', 'my-finetune', { reportedContextLength: 16_384 })).toEqual({
      contextWindow: 16_384,
      outputReserve: 4_096,
      source: 'known',
    });
  });

  it('gives an unknown model the safe default, marked as such', () => {
    expect(modelWindowOf('openai_compatible', 'some-new-model')).toBe(DEFAULT_MODEL_WINDOW);
    expect(DEFAULT_MODEL_WINDOW.source).toBe('default');
  });

  it('budgets the input as the window less the reserve for the answer', () => {
    expect(inputBudgetOf({ contextWindow: 10_000, outputReserve: 2_500, source: 'known' })).toBe(7_500);
    expect(inputBudgetOf({ contextWindow: 1_000, outputReserve: 2_000, source: 'override' })).toBe(0);
  });
});
