import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
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
  providerType: 'openai',
  modelId: 'gpt-4o',
  startServer: (options) => startOpenAIChatServer(options),
  errors: [
    { name: 'a bad key (401)', reply: openAIErrors.invalidApiKey(), errorClass: 'bad_key', transient: false },
    {
      name: 'an unknown model (404)',
      reply: openAIErrors.modelNotFound('gpt-9'),
      errorClass: 'model_not_found',
      transient: false,
    },
    {
      name: 'a rate limit (429 with retry-after)',
      reply: openAIErrors.rateLimited(7),
      errorClass: 'rate_limited',
      transient: true,
      retryAfterMs: 7000,
    },
    {
      name: 'an exhausted quota (429 insufficient_quota)',
      reply: openAIErrors.insufficientQuota(),
      errorClass: 'usage_limit',
      transient: false,
    },
    {
      name: 'a conversation over the context window (400)',
      reply: openAIErrors.contextLengthExceeded(),
      errorClass: 'context_too_long',
      transient: false,
    },
    { name: 'a server error (500)', reply: openAIErrors.serverError(), errorClass: 'server_error', transient: true },
  ],
  midStreamError: {
    error: {
      message: 'The server had an error while processing your request.',
      type: 'server_error',
      param: null,
      code: null,
    },
    errorClass: 'server_error',
    transient: true,
  },
  // OpenAI's Chat Completions never streams reasoning text; it counts reasoning tokens.
  carries: { reasoningText: false, cachedTokens: true, reasoningTokens: true },
});

describe('openai: what the request carries', () => {
  let server: ProviderTestServer;
  beforeEach(async () => {
    server = await startOpenAIChatServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('sends the model id, the key, the tools, the system prompt and the whole conversation as Chat Completions', async () => {
    server.enqueue(textReply('Nothing else.'));
    const { error } = await collectStep(
      streamModelStep({
        target: { providerType: 'openai', baseUrl: server.baseUrl, apiKey: TEST_API_KEY, modelId: 'gpt-4.1-mini' },
        system: SAMPLE_SYSTEM,
        messages: SAMPLE_CONVERSATION,
        tools: SAMPLE_TOOLS,
        maxOutputTokens: 321,
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
    expect(call?.headers.authorization).toBe(`Bearer ${TEST_API_KEY}`);
    expect(call?.body).toMatchObject({
      model: 'gpt-4.1-mini',
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 321,
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'The current weather in a city.',
            parameters: SAMPLE_TOOLS[0]?.inputSchema,
          },
        },
        {
          type: 'function',
          function: {
            name: 'read_file',
            description: 'Reads a file in the workspace.',
            parameters: SAMPLE_TOOLS[1]?.inputSchema,
          },
        },
      ],
      messages: [
        { role: 'system', content: SAMPLE_SYSTEM },
        { role: 'user', content: 'What is the weather in Oslo, and what is in notes.txt?' },
        {
          role: 'assistant',
          content: 'Let me check both.',
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

  it('does not retry a failed call itself', async () => {
    server.enqueue(openAIErrors.serverError(), textReply('too late'));
    const { error } = await collectStep(
      streamModelStep({
        target: { providerType: 'openai', baseUrl: server.baseUrl, apiKey: TEST_API_KEY, modelId: 'gpt-4o' },
        messages: [{ role: 'user', text: 'Hi' }],
        tools: [],
        signal: new AbortController().signal,
      }),
    );
    expect(error?.errorClass).toBe('server_error');
    expect(server.modelCalls()).toHaveLength(1);
  });
});
