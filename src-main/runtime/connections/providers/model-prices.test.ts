import { describe, expect, it } from 'vitest';
import { costOf, listPriceOf } from './model-prices';

const usage = (inputTokens: number, outputTokens: number, cachedInputTokens = 0) => ({
  inputTokens,
  outputTokens,
  cachedInputTokens,
  reasoningTokens: 0,
});

describe('costOf', () => {
  it('prices input and output per million tokens', () => {
    expect(costOf('gpt-4o', usage(1_000_000, 1_000_000))?.usd).toBeCloseTo(12.5, 9);
    expect(costOf('gpt-4o-mini', usage(2_000_000, 0))?.usd).toBeCloseTo(0.3, 9);
    expect(costOf('claude-sonnet-4-5', usage(1000, 500))?.usd).toBeCloseTo(0.003 + 0.0075, 9);
  });

  it('prices cached input at the cache-read rate', () => {
    // 600k fresh at $3, 400k cached at $0.30, 0 out.
    expect(costOf('claude-sonnet-4', usage(1_000_000, 0, 400_000))?.usd).toBeCloseTo(1.8 + 0.12, 9);
  });

  it('recognises dated ids, -latest, and router prefixes, telling families apart', () => {
    expect(costOf('claude-sonnet-4-5-20250929', usage(1_000_000, 0))?.usd).toBeCloseTo(3, 9);
    expect(costOf('claude-3-5-haiku-latest', usage(1_000_000, 0))?.usd).toBeCloseTo(0.8, 9);
    expect(costOf('gpt-4.1-2025-04-14', usage(1_000_000, 0))?.usd).toBeCloseTo(2, 9);
    expect(costOf('openai/gpt-4.1-mini', usage(1_000_000, 0))?.usd).toBeCloseTo(0.4, 9);
    expect(costOf('anthropic/claude-3.7-sonnet:thinking', usage(0, 1_000_000))?.usd).toBeCloseTo(15, 9);
    expect(costOf('claude-opus-4-5', usage(1_000_000, 0))?.usd).toBeCloseTo(5, 9);
    expect(costOf('claude-opus-4-1-20250805', usage(1_000_000, 0))?.usd).toBeCloseTo(15, 9);
    expect(costOf('o4-mini', usage(0, 1_000_000))?.usd).toBeCloseTo(4.4, 9);
  });

  it('does not guess: unknown models and lookalikes are null', () => {
    expect(costOf('gpt-4o-audio-preview', usage(10, 10))).toBeNull();
    expect(costOf('my-finetune', usage(10, 10))).toBeNull();
    expect(costOf('toString', usage(10, 10))).toBeNull();
  });

  it('counts local models as free', () => {
    expect(costOf('llama3.2:latest', usage(5000, 5000), 'ollama')).toEqual({ usd: 0 });
    expect(costOf('llama3.2:latest', usage(5000, 5000))).toBeNull();
  });
});

describe('listPriceOf', () => {
  it('gives the price per million input and output tokens the picker shows, null when unknown', () => {
    expect(listPriceOf('gpt-4o-2024-08-06', 'openai')).toEqual({ inputPerMillion: 2.5, outputPerMillion: 10 });
    expect(listPriceOf('anthropic/claude-3.7-sonnet', 'openai_compatible')).toEqual({
      inputPerMillion: 3,
      outputPerMillion: 15,
    });
    expect(listPriceOf('my-finetune', 'openai_compatible')).toBeNull();
  });

  it('prices local models (Ollama) and the Offline demo at zero', () => {
    expect(listPriceOf('llama3.2:latest', 'ollama')).toEqual({ inputPerMillion: 0, outputPerMillion: 0 });
    expect(listPriceOf('scripted', 'scripted')).toEqual({ inputPerMillion: 0, outputPerMillion: 0 });
  });
});
