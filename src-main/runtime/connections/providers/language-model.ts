import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import { createOllama } from 'ollama-ai-provider-v2';
import { reportingOllamaStreamErrors } from './ollama-stream-errors';
import { sdkBaseUrl } from './provider-endpoints';
import type { ProviderTarget } from './provider-types';

/**
 * The AI SDK model for a target. A fresh provider per call: nothing is cached between calls, and an
 * absent key is sent as no key (never read from the environment by the SDK). `onStreamError` hears
 * of errors a provider sends inside a stream that its SDK provider would otherwise drop (Ollama's).
 */
export function languageModelFor(
  target: ProviderTarget,
  fetchImpl: typeof fetch | undefined,
  onStreamError: (error: unknown) => void,
): LanguageModel {
  const baseURL = sdkBaseUrl(target);
  // The SDKs fall back to OPENAI_API_KEY / ANTHROPIC_API_KEY when no key is given; an empty key
  // stops that, and the request goes out without one.
  const apiKey = target.apiKey ?? '';
  const fetchOption = fetchImpl === undefined ? {} : { fetch: fetchImpl };
  switch (target.providerType) {
    case 'openai':
      // Chat Completions, not the Responses API: its SSE format is the one OpenAI-style servers share.
      return createOpenAI({ baseURL, apiKey, ...fetchOption }).chat(target.modelId);
    case 'anthropic':
      return createAnthropic({ baseURL, apiKey, ...fetchOption }).languageModel(target.modelId);
    case 'openai_compatible':
      return createOpenAICompatible({
        name: 'openai_compatible',
        baseURL,
        ...(target.apiKey === null || target.apiKey === '' ? {} : { apiKey: target.apiKey }),
        includeUsage: true,
        ...fetchOption,
      }).chatModel(target.modelId);
    case 'ollama':
      return createOllama({
        baseURL,
        // Ollama has no keys; one is sent as a Bearer token for a proxy or hosted Ollama in front of it.
        ...(target.apiKey === null || target.apiKey === ''
          ? {}
          : { headers: { authorization: `Bearer ${target.apiKey}` } }),
        fetch: reportingOllamaStreamErrors(fetchImpl, onStreamError),
      }).chat(target.modelId);
  }
}
