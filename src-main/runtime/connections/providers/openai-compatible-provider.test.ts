import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  errorReply,
  openAIErrors,
  startOpenAIChatServer,
  TEST_API_KEY,
  textReply,
  type ProviderTestServer,
} from '../../../testing/provider-servers';
import { describeProviderContract } from '../../../testing/provider-servers/provider-contract';
import {
  SAMPLE_CONVERSATION,
  SAMPLE_SYSTEM,
  SAMPLE_TOOLS,
} from '../../../testing/provider-servers/sample-conversation';
import { collectStep } from '../../../testing/provider-servers/step-collector';
import { streamModelStep } from './stream-model-step';

describeProviderContract({
  providerType: 'openai_compatible',
  modelId: 'qwen2.5-7b-instruct',
  startServer: (options) => startOpenAIChatServer(options),
  errors: [
    { name: 'a bad key (401)', reply: openAIErrors.invalidApiKey(), errorClass: 'bad_key', transient: false },
    {
      name: 'an unknown model (404)',
      reply: openAIErrors.modelNotFound('qwen-9'),
      errorClass: 'model_not_found',
      transient: false,
    },
    {
      name: 'a rate limit (429 with retry-after)',
      reply: openAIErrors.rateLimited(3),
      errorClass: 'rate_limited',
      transient: true,
      retryAfterMs: 3000,
    },
    {
      name: 'no credits left (402, as OpenRouter answers)',
      reply: errorReply(402, {
        error: { message: 'Insufficient credits. Add more using https://openrouter.ai/credits', code: 402 },
      }),
      errorClass: 'usage_limit',
      transient: false,
    },
    {
      name: 'a prompt over the context size (400, as llama.cpp answers)',
      reply: errorReply(400, {
        error: {
          code: 400,
          message: 'the request exceeds the available context size, try increasing it',
          type: 'exceed_context_size_error',
        },
      }),
      errorClass: 'context_too_long',
      transient: false,
    },
    {
      name: 'a server error (503)',
      reply: errorReply(503, { error: { message: 'Service Unavailable', type: 'server_error', code: 503 } }),
      errorClass: 'server_error',
      transient: true,
    },
  ],
  midStreamError: {
    error: { message: 'Provider returned error', code: 502 },
    errorClass: 'server_error',
    transient: true,
  },
  // Compatible servers (vLLM, LM Studio, DeepSeek, llama.cpp) stream `reasoning_content`.
  carries: { reasoningText: true, cachedTokens: true, reasoningTokens: true },
});

describe('openai_compatible: what the request carries', () => {
  let server: ProviderTestServer;
  beforeEach(async () => {
    server = await startOpenAIChatServer({ apiKey: null });
  });
  afterEach(async () => {
    await server.close();
  });

  it('sends the model id, the tools, the conversation with its reasoning, and asks for usage; no key means no Authorization', async () => {
    server.enqueue(textReply('Nothing else.'));
    const { error } = await collectStep(
      streamModelStep({
        target: { providerType: 'openai_compatible', baseUrl: server.baseUrl, apiKey: null, modelId: 'local-model' },
        system: SAMPLE_SYSTEM,
        messages: SAMPLE_CONVERSATION,
        tools: SAMPLE_TOOLS,
        signal: new AbortController().signal,
      }),
    );
    expect(error).toBeNull();
    const call = server.modelCalls()[0];
    expect(server.toolResultsIn(0)).toEqual([
      { toolCallId: 'call_1', content: '{"temperatureC":-3,"sky":"snow"}', isError: null },
      { toolCallId: 'call_2', content: 'No such file: notes.txt', isError: null },
    ]);
    expect(call?.path).toBe('/v1/chat/completions');
    expect(call?.headers.authorization).toBeUndefined();
    expect(call?.body).toMatchObject({
      model: 'local-model',
      stream: true,
      stream_options: { include_usage: true },
      tools: [
        { type: 'function', function: { name: 'get_weather', parameters: SAMPLE_TOOLS[0]?.inputSchema } },
        { type: 'function', function: { name: 'read_file', parameters: SAMPLE_TOOLS[1]?.inputSchema } },
      ],
      messages: [
        { role: 'system', content: SAMPLE_SYSTEM },
        { role: 'user', content: 'What is the weather in Oslo, and what is in notes.txt?' },
        {
          role: 'assistant',
          content: 'Let me check both.',
          reasoning_content: 'I need the weather tool and the file tool.',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
            { id: 'call_2', type: 'function', function: { name: 'read_file', arguments: '{"path":"notes.txt"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"temperatureC":-3,"sky":"snow"}' },
        { role: 'tool', tool_call_id: 'call_2', content: 'No such file: notes.txt' },
        { role: 'user', content: 'Thanks. Anything else?' },
      ],
    });
  });

  it('sends a key as a Bearer token when there is one', async () => {
    server.enqueue(textReply('Hi.'));
    await collectStep(
      streamModelStep({
        target: { providerType: 'openai_compatible', baseUrl: server.baseUrl, apiKey: TEST_API_KEY, modelId: 'm' },
        messages: [{ role: 'user', text: 'Hi' }],
        tools: [],
        signal: new AbortController().signal,
      }),
    );
    expect(server.modelCalls()[0]?.headers.authorization).toBe(`Bearer ${TEST_API_KEY}`);
  });

  it('refuses to run without a base URL, before any request', async () => {
    const { error } = await collectStep(
      streamModelStep({
        target: { providerType: 'openai_compatible', baseUrl: null, apiKey: null, modelId: 'm' },
        messages: [{ role: 'user', text: 'Hi' }],
        tools: [],
        signal: new AbortController().signal,
      }),
    );
    expect(error).toMatchObject({ errorClass: 'bad_request', transient: false });
    expect(error?.message).toMatch(/base URL/);
  });
});
