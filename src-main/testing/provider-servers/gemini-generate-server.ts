import type { IncomingHttpHeaders } from 'node:http';
import { asRecord } from './json-record';
import {
  startProviderTestServer,
  type ProviderDialect,
  type ProviderTestServer,
  type ProviderTestServerOptions,
  type RecordedRequest,
} from './provider-test-server';
import { errorReply, finishReasonOf, type ScriptedError, type ScriptedStream } from './scripted-reply';
import type { StreamWriter } from './stream-writer';

/**
 * The Gemini API (Generative Language API, as `@google/genai` calls it): `POST
 * /v1beta/models/{model}:streamGenerateContent?alt=sse`, SSE `data:` lines each a
 * GenerateContentResponse (`candidates[0].content.parts`: `thought` parts, text parts, one
 * `functionCall` part per tool call with its whole `args`), the last with `finishReason` and
 * `usageMetadata`; `GET /v1beta/models`. Requests need `x-goog-api-key`.
 */
export function startGeminiServer(options: ProviderTestServerOptions = {}): Promise<ProviderTestServer> {
  return startProviderTestServer(geminiDialect, {
    models: [{ id: 'gemini-2.5-flash', label: 'Gemini 2.5 Flash' }],
    ...options,
  });
}

/** The provider's real error answers, for scripting. */
export const geminiErrors = {
  invalidApiKey: (): ScriptedError =>
    errorReply(400, geminiError(400, 'API key not valid. Please pass a valid API key.', 'INVALID_ARGUMENT')),
  rateLimited: (): ScriptedError =>
    errorReply(429, geminiError(429, 'Resource has been exhausted (e.g. check quota).', 'RESOURCE_EXHAUSTED')),
};

function geminiError(code: number, message: string, status: string) {
  return { error: { code, message, status } };
}

const FINISH_REASONS = { stop: 'STOP', length: 'MAX_TOKENS', tool_calls: 'STOP', content_filter: 'SAFETY' } as const;

const geminiDialect: ProviderDialect = {
  basePath: '',
  modelCallPath: /^\/v1beta\/models\/[^/:]+:streamGenerateContent$/,
  modelListPath: '/v1beta/models',
  rejection(headers: IncomingHttpHeaders, apiKey) {
    if (apiKey === null || headers['x-goog-api-key'] === apiKey) return null;
    return geminiErrors.invalidApiKey();
  },
  unscripted: () =>
    errorReply(500, geminiError(500, 'test server: no reply was scripted for this request', 'INTERNAL')),
  modelListBody: (models) => ({
    models: models.map((model) => {
      const id = typeof model === 'string' ? model : model.id;
      return {
        name: `models/${id}`,
        displayName: typeof model === 'string' ? model : model.label,
        supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'],
      };
    }),
  }),
  writeStream: writeGenerateContentStream,
  toolResultsIn: (body) => {
    const contents = asRecord(body).contents;
    if (!Array.isArray(contents)) return [];
    return contents
      .map(asRecord)
      .flatMap((content) =>
        content.role === 'user' && Array.isArray(content.parts) ? content.parts.map(asRecord) : [],
      )
      .filter((part) => part.functionResponse !== undefined)
      .map((part) => {
        const response = asRecord(part.functionResponse);
        const output = asRecord(response.response);
        return {
          toolCallId: typeof response.id === 'string' ? response.id : null,
          content: JSON.stringify(output.output ?? output.error ?? output),
          isError: output.error !== undefined,
        };
      });
  },
};

async function writeGenerateContentStream(
  out: StreamWriter,
  reply: ScriptedStream,
  request: RecordedRequest,
): Promise<void> {
  const model = /models\/([^/:]+):/.exec(request.path)?.[1] ?? 'unknown';
  const chunk = (parts: readonly Record<string, unknown>[], last: boolean) =>
    out.sse({
      candidates: [
        {
          content: { role: 'model', parts },
          index: 0,
          ...(last ? { finishReason: FINISH_REASONS[finishReasonOf(reply)] } : {}),
        },
      ],
      ...(last ? { usageMetadata: usageOf(reply) } : {}),
      modelVersion: model,
      responseId: 'resp_test',
    });

  out.start('text/event-stream');
  for (const thought of reply.reasoning) chunk([{ text: thought, thought: true }], false);
  for (const text of reply.text) chunk([{ text }], false);
  const calls = reply.toolCalls.map((call) => ({
    functionCall: { id: call.id, name: call.name, args: JSON.parse(call.argumentChunks.join('')) as unknown },
  }));
  if (typeof reply.ending === 'object') {
    out.sse({ error: reply.ending.error });
    return out.end('finish');
  }
  if (reply.ending !== 'finish') {
    if (calls.length > 0) chunk(calls, false);
    return out.end(reply.ending);
  }
  // The last chunk carries the finish reason and usage (with the calls, when there are any).
  chunk(calls, true);
  await out.end('finish');
}

function usageOf(reply: ScriptedStream) {
  const { inputTokens, outputTokens, cachedInputTokens = 0, reasoningTokens = 0 } = reply.usage;
  return {
    promptTokenCount: inputTokens,
    candidatesTokenCount: outputTokens - reasoningTokens,
    thoughtsTokenCount: reasoningTokens,
    cachedContentTokenCount: cachedInputTokens,
    totalTokenCount: inputTokens + outputTokens,
  };
}
