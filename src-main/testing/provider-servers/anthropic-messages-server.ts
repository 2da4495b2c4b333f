import type { IncomingHttpHeaders } from 'node:http';
import { asRecord } from './json-record';
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

/**
 * Anthropic Messages (`POST /v1/messages`, SSE: message_start, content_block_start/delta/stop for
 * thinking, text and tool_use blocks, message_delta with the stop reason and output usage,
 * message_stop; `GET /v1/models`). Requests need `x-api-key` and `anthropic-version`.
 */
export function startAnthropicServer(options: ProviderTestServerOptions = {}): Promise<ProviderTestServer> {
  return startProviderTestServer(anthropicDialect, {
    models: [
      { id: 'claude-sonnet-4-5-20250929', label: 'Claude Sonnet 4.5' },
      { id: 'claude-haiku-4-5-20251001', label: 'Claude Haiku 4.5' },
    ],
    ...options,
  });
}

/** The provider's real error answers, for scripting. */
export const anthropicErrors = {
  invalidApiKey: (): ScriptedError => errorReply(401, anthropicError('authentication_error', 'invalid x-api-key')),
  modelNotFound: (model: string): ScriptedError =>
    errorReply(404, anthropicError('not_found_error', `model: ${model}`)),
  rateLimited: (retryAfterSeconds: number): ScriptedError =>
    errorReply(
      429,
      anthropicError(
        'rate_limit_error',
        'This request would exceed the rate limit for your organization of 50 requests per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits.',
      ),
      { 'retry-after': String(retryAfterSeconds), 'anthropic-ratelimit-requests-remaining': '0' },
    ),
  creditBalanceTooLow: (): ScriptedError =>
    errorReply(
      400,
      anthropicError(
        'invalid_request_error',
        'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.',
      ),
    ),
  promptTooLong: (): ScriptedError =>
    errorReply(400, anthropicError('invalid_request_error', 'prompt is too long: 215347 tokens > 200000 maximum')),
  apiError: (): ScriptedError => errorReply(500, anthropicError('api_error', 'Internal server error')),
  overloaded: (): ScriptedError => errorReply(529, anthropicError('overloaded_error', 'Overloaded')),
};

function anthropicError(type: string, message: string) {
  return { type: 'error', error: { type, message }, request_id: 'req_test' };
}

const anthropicDialect: ProviderDialect = {
  basePath: '',
  modelCallPath: '/v1/messages',
  modelListPath: '/v1/models',
  rejection(headers: IncomingHttpHeaders, apiKey) {
    if (headers['anthropic-version'] === undefined)
      return errorReply(400, anthropicError('invalid_request_error', 'anthropic-version: header is required'));
    if (apiKey === null || headers['x-api-key'] === apiKey) return null;
    return headers['x-api-key'] === undefined
      ? errorReply(401, anthropicError('authentication_error', 'x-api-key header is required'))
      : anthropicErrors.invalidApiKey();
  },
  unscripted: () => errorReply(500, anthropicError('api_error', 'test server: no reply was scripted for this request')),
  modelListBody: (models) => {
    const data = models.map((model) => ({
      type: 'model',
      id: modelIdOf(model),
      display_name: typeof model === 'string' ? model : model.label,
      created_at: '2025-09-29T00:00:00Z',
    }));
    return { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null };
  },
  writeStream: writeMessagesStream,
  toolResultsIn: (body) => {
    const messages = asRecord(body).messages;
    if (!Array.isArray(messages)) return [];
    return messages
      .map(asRecord)
      .flatMap((message) =>
        message.role === 'user' && Array.isArray(message.content) ? message.content.map(asRecord) : [],
      )
      .filter((block) => block.type === 'tool_result')
      .map((block) => ({
        toolCallId: typeof block.tool_use_id === 'string' ? block.tool_use_id : null,
        content: blockText(block.content),
        isError: block.is_error === true,
      }));
  },
};

/** A tool_result's content: a string, or an array of `{ type: 'text', text }` blocks. */
function blockText(content: unknown): string {
  if (typeof content === 'string') return content;
  return Array.isArray(content) ? content.map((part) => String(asRecord(part).text ?? '')).join('') : '';
}

const STOP_REASONS = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  content_filter: 'refusal',
} as const;

/** Each answer's own message id, as Anthropic gives (Claude's agent groups a transcript's entries by it). */
let messageCount = 0;

async function writeMessagesStream(out: StreamWriter, reply: ScriptedStream, request: RecordedRequest): Promise<void> {
  const body = asRecord(request.body);
  const model = typeof body.model === 'string' ? body.model : 'unknown';
  const { inputTokens, outputTokens, cachedInputTokens = 0 } = reply.usage;
  const send = (type: string, fields: Record<string, unknown>) => out.sse({ type, ...fields }, type);

  out.start('text/event-stream');
  send('message_start', {
    message: {
      id: `msg_test_${++messageCount}`,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: inputTokens - cachedInputTokens,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: cachedInputTokens,
        output_tokens: 1,
      },
    },
  });
  send('ping', {});
  let index = 0;
  const block = (contentBlock: Record<string, unknown>, deltas: readonly Record<string, unknown>[]) => {
    send('content_block_start', { index, content_block: contentBlock });
    for (const delta of deltas) send('content_block_delta', { index, delta });
    send('content_block_stop', { index });
    index += 1;
  };
  if (reply.reasoning.length > 0) {
    block({ type: 'thinking', thinking: '', signature: '' }, [
      ...reply.reasoning.map((thinking) => ({ type: 'thinking_delta', thinking })),
      { type: 'signature_delta', signature: 'EqQBCgIYAhIM-test-signature' },
    ]);
  }
  if (reply.text.length > 0)
    block(
      { type: 'text', text: '' },
      reply.text.map((text) => ({ type: 'text_delta', text })),
    );
  for (const call of reply.toolCalls) {
    block({ type: 'tool_use', id: call.id, name: call.name, input: {} }, [
      { type: 'input_json_delta', partial_json: '' },
      ...call.argumentChunks.map((partial_json) => ({ type: 'input_json_delta', partial_json })),
    ]);
  }
  if (typeof reply.ending === 'object') {
    send('error', { error: reply.ending.error });
    return out.end('finish');
  }
  await out.end(reply.ending, () => {
    send('message_delta', {
      delta: { stop_reason: STOP_REASONS[finishReasonOf(reply)], stop_sequence: null },
      usage: { output_tokens: outputTokens },
    });
    send('message_stop', {});
  });
}
