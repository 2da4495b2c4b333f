import type { ModelPrice } from '../../../../src-shared/connection-model';
import type { ModelUsage, ProviderType } from './provider-types';

/** USD per million tokens. `cachedInput` is the price of input read from the provider's prompt cache. */
interface Price {
  readonly input: number;
  readonly cachedInput: number;
  readonly output: number;
}

/**
 * List prices of common current models (USD per million tokens, as published by OpenAI and Anthropic
 * in 2025). A model id matches its family name with an optional date or `-latest` suffix.
 */
const PRICES: ReadonlyMap<string, Price> = new Map(
  Object.entries({
    'gpt-4o': { input: 2.5, cachedInput: 1.25, output: 10 },
    'gpt-4o-mini': { input: 0.15, cachedInput: 0.075, output: 0.6 },
    'gpt-4.1': { input: 2, cachedInput: 0.5, output: 8 },
    'gpt-4.1-mini': { input: 0.4, cachedInput: 0.1, output: 1.6 },
    'gpt-4.1-nano': { input: 0.1, cachedInput: 0.025, output: 0.4 },
    'gpt-5': { input: 1.25, cachedInput: 0.125, output: 10 },
    'gpt-5-mini': { input: 0.25, cachedInput: 0.025, output: 2 },
    'gpt-5-nano': { input: 0.05, cachedInput: 0.005, output: 0.4 },
    o1: { input: 15, cachedInput: 7.5, output: 60 },
    'o1-mini': { input: 1.1, cachedInput: 0.55, output: 4.4 },
    o3: { input: 2, cachedInput: 0.5, output: 8 },
    'o3-mini': { input: 1.1, cachedInput: 0.55, output: 4.4 },
    'o4-mini': { input: 1.1, cachedInput: 0.275, output: 4.4 },
    'claude-3-5-haiku': { input: 0.8, cachedInput: 0.08, output: 4 },
    'claude-3-5-sonnet': { input: 3, cachedInput: 0.3, output: 15 },
    'claude-3-7-sonnet': { input: 3, cachedInput: 0.3, output: 15 },
    'claude-sonnet-4': { input: 3, cachedInput: 0.3, output: 15 },
    'claude-sonnet-4-5': { input: 3, cachedInput: 0.3, output: 15 },
    'claude-haiku-4-5': { input: 1, cachedInput: 0.1, output: 5 },
    'claude-opus-4': { input: 15, cachedInput: 1.5, output: 75 },
    'claude-opus-4-1': { input: 15, cachedInput: 1.5, output: 75 },
    'claude-opus-4-5': { input: 5, cachedInput: 0.5, output: 25 },
  }),
);

/**
 * What a step cost at list price, or null when the model's price is unknown. Local models (Ollama) cost
 * nothing. Reasoning tokens are part of the output tokens and priced with them; Anthropic's
 * cache-write surcharge is not counted.
 */
export function costOf(modelId: string, usage: ModelUsage, providerType?: ProviderType): { usd: number } | null {
  if (providerType === 'ollama') return { usd: 0 };
  const price = priceOf(modelId);
  if (price === null) return null;
  const cached = Math.min(usage.cachedInputTokens, usage.inputTokens);
  const usd =
    ((usage.inputTokens - cached) * price.input + cached * price.cachedInput + usage.outputTokens * price.output) /
    1_000_000;
  return { usd };
}

/** A model's list price per million input and output tokens (the picker shows it), null when unknown; Ollama's local models are free. */
export function listPriceOf(
  modelId: string,
  providerType: ProviderType | 'codex' | 'acp' | 'scripted',
): ModelPrice | null {
  if (providerType === 'ollama' || providerType === 'scripted') return { inputPerMillion: 0, outputPerMillion: 0 };
  const price = priceOf(modelId);
  return price === null ? null : { inputPerMillion: price.input, outputPerMillion: price.output };
}

function priceOf(modelId: string): Price | null {
  // `openai/gpt-4o` (OpenRouter) names the same model; Claude ids there use dots (`claude-3.5-sonnet`)
  // and variants carry a `:suffix` (`:thinking`).
  const bare = modelId
    .trim()
    .toLowerCase()
    .replace(/^[a-z0-9_-]+\//, '')
    .replace(/:.*$/, '');
  const name = bare.startsWith('claude') ? bare.replaceAll('.', '-') : bare;
  const family = name.replace(/-(\d{4}-\d{2}-\d{2}|\d{8}|latest)$/, '');
  return PRICES.get(family) ?? null;
}
