/**
 * The model-provider layer: OpenAI (Chat Completions), Anthropic (Messages), Ollama and any
 * OpenAI-compatible server (LM Studio, llama.cpp, vLLM, OpenRouter), through the AI SDK.
 *
 * - `streamModelStep(request)` — one model call: yields `text_delta`, `reasoning_delta`, complete
 *   `tool_call`s (parsed input; the tools are never executed here), then one `finish` with the finish
 *   reason, usage and latency. No retries. `target.timeouts` bounds the wait for the first token and
 *   the silence between parts (class `timed_out`). Throws `ProviderError`; aborting `request.signal` closes
 *   the HTTP request and throws class `aborted` at once.
 * - `ProviderError` — `errorClass` (bad_key, model_not_found, rate_limited, context_too_long,
 *   unreachable, server_error, usage_limit, bad_request, timed_out, aborted), `transient`, `retryAfterMs`,
 *   `status`; a message for a person, never containing the API key. `classifyProviderError(error)`
 *   maps anything thrown by the SDK or fetch onto one.
 * - `listModels(connection, signal)` / `testConnection(connection, signal)` — the model list, and a
 *   verdict (ok, bad_key, unreachable, model_unknown, server_error) from it.
 * - `defaultBaseUrl(type)` — the API root used when a connection names none (null for
 *   openai_compatible, which must). Roots: `https://api.openai.com/v1`, `https://api.anthropic.com`,
 *   `http://127.0.0.1:11434`.
 * - `costOf(modelId, usage, providerType?)` — list-price cost in USD, null when unknown, 0 for Ollama.
 *
 * Tests: src-main/testing/provider-servers/ has local servers speaking each provider's wire format.
 */
export { classifyProviderError, type ClassifyContext } from './classify-provider-error';
export { costOf, listPriceOf } from './model-prices';
export { listModels, type ListedModel } from './list-models';
export { ollamaContextLength } from './model-details';
export { defaultBaseUrl } from './provider-endpoints';
export { ProviderError, type ProviderErrorClass, type ProviderErrorDetails } from './provider-error';
export type {
  ConversationMessage,
  ModelAttachment,
  ModelFinishReason,
  ModelStepEvent,
  ModelStepRequest,
  ModelToolCall,
  ModelToolResult,
  ModelToolSpec,
  ModelUsage,
  ProviderConnection,
  ProviderTarget,
  ProviderType,
  StreamTimeouts,
} from './provider-types';
export { streamModelStep } from './stream-model-step';
export { testConnection, type ConnectionCheck, type ConnectionVerdict } from './test-connection';
