import type { IncomingHttpHeaders } from 'node:http';
import {
  modelIdOf,
  startProviderTestServer,
  type ProviderDialect,
  type ProviderTestServer,
  type ProviderTestServerOptions,
  type RecordedRequest,
} from './provider-test-server';
import { errorReply, finishReasonOf, type ScriptedError, type ScriptedStream } from './scripted-reply';
import type { StreamWriter } from './stream-writer';
import { asRecord } from './json-record';

/**
 * OpenAI Chat Completions (`POST /v1/chat/completions`, SSE of `chat.completion.chunk` objects ending
 * in `data: [DONE]`; `GET /v1/models`). OpenAI-compatible servers (LM Studio, llama.cpp, vLLM,
 * OpenRouter) speak the same format; like them, reasoning is streamed as `delta.reasoning_content`
 * (OpenAI itself never streams reasoning in this API, only counts it in the usage).
 */
export function startOpenAIChatServer(options: ProviderTestServerOptions = {}): Promise<ProviderTestServer> {
  return startProviderTestServer(openAIChatDialect, { models: ['gpt-4o', 'gpt-4o-mini'], ...options });
}

/** The provider's real error answers, for scripting. */
export const openAIErrors = {
  invalidApiKey: (): ScriptedError =>
    errorReply(
      401,
      openAIError(
        'Incorrect API key provided: sk-wrong. You can find your API key at https://platform.openai.com/account/api-keys.',
        'invalid_request_error',
        'invalid_api_key',
      ),
    ),
  modelNotFound: (model: string): ScriptedError =>
    errorReply(
      404,
      openAIError(
        `The model \`${model}\` does not exist or you do not have access to it.`,
        'invalid_request_error',
        'model_not_found',
      ),
    ),
  rateLimited: (retryAfterSeconds: number): ScriptedError =>
    errorReply(
      429,
      openAIError(
        'Rate limit reached for gpt-4o in organization org-test on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s.',
        'requests',
        'rate_limit_exceeded',
      ),
      { 'retry-after': String(retryAfterSeconds), 'x-ratelimit-reset-requests': `${retryAfterSeconds}s` },
    ),
  insufficientQuota: (): ScriptedError =>
    errorReply(
      429,
      openAIError(
        'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.',
        'insufficient_quota',
        'insufficient_quota',
      ),
    ),
  contextLengthExceeded: (): ScriptedError =>
    errorReply(
      400,
      openAIError(
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 130412 tokens. Please reduce the length of the messages.",
        'invalid_request_error',
        'context_length_exceeded',
        'messages',
      ),
    ),
  serverError: (): ScriptedError =>
    errorReply(
      500,
      openAIError('The server had an error while processing your request. Sorry about that!', 'server_error', null),
    ),
};

function openAIError(message: string, type: string, code: string | null, param: string | null = null) {
  return { error: { message, type, param, code } };
}

const openAIChatDialect: ProviderDialect = {
  basePath: '/v1',
  modelCallPath: '/v1/chat/completions',
  modelListPath: '/v1/models',
  rejection(headers: IncomingHttpHeaders, apiKey) {
    if (apiKey === null || headers.authorization === `Bearer ${apiKey}`) return null;
    const presented = (headers.authorization ?? '').replace(/^Bearer\s+/i, '');
    return presented === ''
      ? errorReply(
          401,
          openAIError(
            "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
            'invalid_request_error',
            null,
          ),
        )
      : // Echoes the key in full, as careless compatible servers do: the client must never repeat it.
        errorReply(
          401,
          openAIError(`Incorrect API key provided: ${presented}.`, 'invalid_request_error', 'invalid_api_key'),
        );
  },
  unscripted: () =>
    errorReply(500, openAIError('test server: no reply was scripted for this request', 'server_error', null)),
  modelListBody: (models) => ({
    object: 'list',
    data: models.map((model) => ({
      id: modelIdOf(model),
      object: 'model',
      created: 1_715_367_049,
      owned_by: 'system',
    })),
  }),
  writeStream: writeChatCompletionStream,
  toolResultsIn: (body) =>
    messagesOf(body)
      .filter((message) => message.role === 'tool')
      .map((message) => ({
        toolCallId: typeof message.tool_call_id === 'string' ? message.tool_call_id : null,
        content: textOf(message.content),
        isError: null,
      })),
};

function messagesOf(body: unknown): Record<string, unknown>[] {
  const messages = asRecord(body).messages;
  return Array.isArray(messages) ? messages.map(asRecord) : [];
}

/** Chat Completions content: a string, or an array of `{ type: 'text', text }` parts. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return Array.isArray(content) ? content.map((part) => String(asRecord(part).text ?? '')).join('') : '';
}

async function writeChatCompletionStream(
  out: StreamWriter,
  reply: ScriptedStream,
  request: RecordedRequest,
): Promise<void> {
  const body = asRecord(request.body);
  const model = typeof body.model === 'string' ? body.model : 'unknown';
  const includeUsage = asRecord(body.stream_options).include_usage === true;
  const base = {
    id: 'chatcmpl-test',
    object: 'chat.completion.chunk',
    created: 1_715_367_049,
    model,
    system_fingerprint: 'fp_test',
  };
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
    out.sse({
      ...base,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      ...(includeUsage ? { usage: null } : {}),
    });

  out.start('text/event-stream');
  const hasText = reply.text.length > 0;
  chunk({ role: 'assistant', content: hasText ? '' : null, refusal: null });
  for (const piece of reply.reasoning) chunk({ reasoning_content: piece });
  for (const piece of reply.text) chunk({ content: piece });
  reply.toolCalls.forEach((call, index) => {
    chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] });
    for (const piece of call.argumentChunks) chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
  });
  if (typeof reply.ending === 'object') {
    // How OpenAI-style servers report a failure once the stream has begun.
    out.sse({ error: reply.ending.error });
    return out.end('finish');
  }
  await out.end(reply.ending, () => {
    chunk({}, FINISH_REASONS[finishReasonOf(reply)]);
    if (includeUsage) out.sse({ ...base, choices: [], usage: usageOf(reply) });
    out.sse('[DONE]');
  });
}

const FINISH_REASONS = {
  stop: 'stop',
  length: 'length',
  tool_calls: 'tool_calls',
  content_filter: 'content_filter',
} as const;

function usageOf(reply: ScriptedStream) {
  const { inputTokens, outputTokens, cachedInputTokens = 0, reasoningTokens = 0 } = reply.usage;
  return {
    prompt_tokens: inputTokens,
    completion_tokens: outputTokens,
    total_tokens: inputTokens + outputTokens,
    prompt_tokens_details: { cached_tokens: cachedInputTokens, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: reasoningTokens,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}
