import type { IncomingHttpHeaders } from 'node:http';
import { asRecord } from './json-record';
import {
  startProviderTestServer,
  type ProviderDialect,
  type ProviderTestServer,
  type ProviderTestServerOptions,
  type RecordedRequest,
} from './provider-test-server';
import { errorReply, type ScriptedError, type ScriptedStream } from './scripted-reply';
import type { StreamWriter } from './stream-writer';

/**
 * The OpenAI Responses API (`POST /v1/responses`, SSE of typed events), as Codex speaks it: reasoning
 * as a summary streamed in a reasoning item, text as `response.output_text.delta` inside an output item, tool calls as `function_call` items (and
 * `apply_patch` as a `custom_tool_call` whose input is the patch text), usage on
 * `response.completed`, an in-stream failure as `response.failed`. Codex sends no key to a provider
 * without `env_key`, so `apiKey` defaults to null here.
 */
export function startOpenAIResponsesServer(options: ProviderTestServerOptions = {}): Promise<ProviderTestServer> {
  return startProviderTestServer(responsesDialect, { apiKey: null, ...options });
}

export const responsesErrors = {
  serverError: (): ScriptedError =>
    errorReply(500, {
      error: {
        message: 'The server had an error while processing your request.',
        type: 'server_error',
        param: null,
        code: 'server_error',
      },
    }),
};

/** The tool whose scripted input is the raw patch text (sent as a custom tool call). */
const CUSTOM_TOOLS = new Set(['apply_patch']);

const responsesDialect: ProviderDialect = {
  basePath: '/v1',
  modelCallPath: '/v1/responses',
  modelListPath: '/v1/models',
  rejection(headers: IncomingHttpHeaders, apiKey) {
    if (apiKey === null || headers.authorization === `Bearer ${apiKey}`) return null;
    return errorReply(401, {
      error: {
        message: 'Incorrect API key provided.',
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      },
    });
  },
  unscripted: () =>
    errorReply(500, {
      error: {
        message: 'test server: no reply was scripted for this request',
        type: 'server_error',
        param: null,
        code: null,
      },
    }),
  modelListBody: () => ({ object: 'list', data: [] }),
  writeStream: writeResponseStream,
  toolResultsIn: (body) =>
    inputItemsOf(body)
      .filter((item) => item.type === 'function_call_output' || item.type === 'custom_tool_call_output')
      .map((item) => ({
        toolCallId: typeof item.call_id === 'string' ? item.call_id : null,
        content: typeof item.output === 'string' ? item.output : JSON.stringify(item.output),
        isError: null,
      })),
};

/** The `input` items of a Responses request body. */
export function inputItemsOf(body: unknown): Record<string, unknown>[] {
  const input = asRecord(body).input;
  return Array.isArray(input) ? input.map(asRecord) : [];
}

/** The text of the last user message of a Responses request (what a scripted test reads to decide). */
export function lastUserText(body: unknown): string {
  const users = inputItemsOf(body).filter((item) => item.role === 'user');
  const content = users.at(-1)?.content;
  if (typeof content === 'string') return content;
  return Array.isArray(content) ? content.map((part) => String(asRecord(part).text ?? '')).join('') : '';
}

async function writeResponseStream(out: StreamWriter, reply: ScriptedStream, request: RecordedRequest): Promise<void> {
  const id = `resp_${request.receivedAt}`;
  out.start('text/event-stream');
  const event = (type: string, data: Record<string, unknown>) => out.sse({ type, ...data }, type);
  event('response.created', { response: { id, status: 'in_progress' } });
  let index = 0;
  if (reply.reasoning.length > 0) {
    const itemId = `rs_${index}`;
    event('response.output_item.added', { output_index: index, item: { type: 'reasoning', id: itemId, summary: [] } });
    event('response.reasoning_summary_part.added', {
      item_id: itemId,
      output_index: index,
      summary_index: 0,
      part: { type: 'summary_text', text: '' },
    });
    for (const delta of reply.reasoning)
      event('response.reasoning_summary_text.delta', { item_id: itemId, output_index: index, summary_index: 0, delta });
    const text = reply.reasoning.join('');
    event('response.reasoning_summary_text.done', { item_id: itemId, output_index: index, summary_index: 0, text });
    event('response.output_item.done', {
      output_index: index,
      item: { type: 'reasoning', id: itemId, summary: [{ type: 'summary_text', text }] },
    });
    index += 1;
  }
  if (reply.text.length > 0) {
    const itemId = `msg_${index}`;
    event('response.output_item.added', {
      output_index: index,
      item: { type: 'message', id: itemId, role: 'assistant', status: 'in_progress', content: [] },
    });
    for (const delta of reply.text)
      event('response.output_text.delta', { item_id: itemId, output_index: index, content_index: 0, delta });
    const text = reply.text.join('');
    event('response.output_text.done', { item_id: itemId, output_index: index, content_index: 0, text });
    event('response.output_item.done', {
      output_index: index,
      item: {
        type: 'message',
        id: itemId,
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text, annotations: [] }],
      },
    });
    index += 1;
  }
  for (const call of reply.toolCalls) {
    const joined = call.argumentChunks.join('');
    const item = CUSTOM_TOOLS.has(call.name)
      ? {
          type: 'custom_tool_call',
          id: `ctc_${call.id}`,
          call_id: call.id,
          name: call.name,
          input: JSON.parse(joined) as unknown,
          status: 'completed',
        }
      : {
          type: 'function_call',
          id: `fc_${call.id}`,
          call_id: call.id,
          name: call.name,
          arguments: joined,
          status: 'completed',
        };
    event('response.output_item.done', { output_index: index, item });
    index += 1;
  }
  if (typeof reply.ending === 'object') {
    event('response.failed', { response: { id, status: 'failed', error: reply.ending.error } });
    return out.end('finish');
  }
  const { inputTokens, outputTokens, cachedInputTokens = 0, reasoningTokens = 0 } = reply.usage;
  await out.end(reply.ending, () =>
    event('response.completed', {
      response: {
        id,
        status: 'completed',
        usage: {
          input_tokens: inputTokens,
          input_tokens_details: { cached_tokens: cachedInputTokens },
          output_tokens: outputTokens,
          output_tokens_details: { reasoning_tokens: reasoningTokens },
          total_tokens: inputTokens + outputTokens,
        },
      },
    }),
  );
}
