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
 * Ollama (`POST /api/chat`, NDJSON lines of `{ message: { content, thinking?, tool_calls? }, done }`
 * ending with a `done: true` line carrying `done_reason`, `prompt_eval_count` and `eval_count`;
 * `GET /api/tags`). Ollama has no API keys, so by default any request is accepted. Ollama sends a tool
 * call's arguments whole, as a JSON object in one line (without an id): the scripted argument chunks
 * are joined.
 */
export function startOllamaServer(options: ProviderTestServerOptions = {}): Promise<ProviderTestServer> {
  return startProviderTestServer(ollamaDialect, { models: ['llama3.2:latest', 'qwen3:8b'], ...options, apiKey: options.apiKey ?? null });
}

/** The provider's real error answers, for scripting. */
export const ollamaErrors = {
  modelNotFound: (model: string): ScriptedError => errorReply(404, { error: `model "${model}" not found, try pulling it first` }),
  serverError: (): ScriptedError => errorReply(500, { error: 'llama runner process has terminated: exit status 2' }),
};

const ollamaDialect: ProviderDialect = {
  basePath: '',
  modelCallPath: '/api/chat',
  modelListPath: '/api/tags',
  rejection(headers: IncomingHttpHeaders, apiKey) {
    // Ollama itself has no keys; a proxy in front of it does, and answers like this.
    if (apiKey === null || headers.authorization === `Bearer ${apiKey}`) return null;
    return errorReply(401, { error: 'unauthorized' });
  },
  unscripted: () => errorReply(500, { error: 'test server: no reply was scripted for this request' }),
  modelListBody: (models) => ({
    models: models.map((model) => ({
      name: modelIdOf(model),
      model: modelIdOf(model),
      modified_at: '2025-06-01T10:00:00.000000000Z',
      size: 2_019_393_189,
      digest: 'a80c4f17acd55265feec403c7aef86be0c25983ab279d83f3bcd3abbcb5b8b72',
      details: { parent_model: '', format: 'gguf', family: 'llama', families: ['llama'], parameter_size: '3.2B', quantization_level: 'Q4_K_M' },
    })),
  }),
  writeStream: writeChatStream,
  toolResultsIn: (body) => {
    const messages = asRecord(body).messages;
    if (!Array.isArray(messages)) return [];
    return messages
      .map(asRecord)
      .filter((message) => message.role === 'tool')
      .map((message) => ({ toolCallId: typeof message.tool_call_id === 'string' ? message.tool_call_id : null, content: String(message.content ?? ''), isError: null }));
  },
};

const DONE_REASONS = { stop: 'stop', length: 'length', tool_calls: 'stop', content_filter: 'stop' } as const;

async function writeChatStream(out: StreamWriter, reply: ScriptedStream, request: RecordedRequest): Promise<void> {
  const model = String(asRecord(request.body).model ?? 'unknown');
  const line = (message: Record<string, unknown>, done = false, extra: Record<string, unknown> = {}) =>
    out.ndjson({ model, created_at: '2025-06-01T10:00:00.000000000Z', message: { role: 'assistant', content: '', ...message }, done, ...extra });

  out.start('application/x-ndjson');
  for (const thinking of reply.reasoning) line({ thinking });
  for (const content of reply.text) line({ content });
  if (reply.toolCalls.length > 0) {
    line({
      tool_calls: reply.toolCalls.map((call) => ({ function: { name: call.name, arguments: JSON.parse(call.argumentChunks.join('')) as unknown } })),
    });
  }
  if (typeof reply.ending === 'object') {
    out.ndjson({ error: reply.ending.error });
    return out.end('finish');
  }
  await out.end(reply.ending, () =>
    line({}, true, {
      done_reason: DONE_REASONS[finishReasonOf(reply)],
      total_duration: 1_234_567_890,
      load_duration: 12_345_678,
      prompt_eval_count: reply.usage.inputTokens,
      prompt_eval_duration: 123_456_789,
      eval_count: reply.usage.outputTokens,
      eval_duration: 987_654_321,
    }),
  );
}
