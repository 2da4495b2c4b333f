import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  anthropicErrors,
  startAnthropicServer,
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

const MODEL = 'claude-sonnet-4-5-20250929';

describeProviderContract({
  providerType: 'anthropic',
  modelId: MODEL,
  startServer: (options) => startAnthropicServer(options),
  errors: [
    { name: 'a bad key (401)', reply: anthropicErrors.invalidApiKey(), errorClass: 'bad_key', transient: false },
    {
      name: 'an unknown model (404)',
      reply: anthropicErrors.modelNotFound('claude-9'),
      errorClass: 'model_not_found',
      transient: false,
    },
    {
      name: 'a rate limit (429 with retry-after)',
      reply: anthropicErrors.rateLimited(12),
      errorClass: 'rate_limited',
      transient: true,
      retryAfterMs: 12_000,
    },
    {
      name: 'a credit balance too low (400)',
      reply: anthropicErrors.creditBalanceTooLow(),
      errorClass: 'usage_limit',
      transient: false,
    },
    {
      name: 'a prompt over the context window (400)',
      reply: anthropicErrors.promptTooLong(),
      errorClass: 'context_too_long',
      transient: false,
    },
    { name: 'a server error (500)', reply: anthropicErrors.apiError(), errorClass: 'server_error', transient: true },
    {
      name: 'an overloaded API (529)',
      reply: anthropicErrors.overloaded(),
      errorClass: 'server_error',
      transient: true,
    },
  ],
  midStreamError: {
    error: { type: 'overloaded_error', message: 'Overloaded' },
    errorClass: 'server_error',
    transient: true,
  },
  // Anthropic streams thinking; its usage carries cache reads but no separate thinking-token count.
  carries: { reasoningText: true, cachedTokens: true, reasoningTokens: false },
});

describe('anthropic: what the request carries', () => {
  let server: ProviderTestServer;
  beforeEach(async () => {
    server = await startAnthropicServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('sends the model id, the key and version headers, the tools, the system prompt and the whole conversation as Messages', async () => {
    server.enqueue(textReply('Nothing else.'));
    const { error } = await collectStep(
      streamModelStep({
        target: { providerType: 'anthropic', baseUrl: server.baseUrl, apiKey: TEST_API_KEY, modelId: MODEL },
        system: SAMPLE_SYSTEM,
        messages: SAMPLE_CONVERSATION,
        tools: SAMPLE_TOOLS,
        maxOutputTokens: 2048,
        signal: new AbortController().signal,
      }),
    );
    expect(error).toBeNull();
    const call = server.modelCalls()[0];
    expect(server.toolResultsIn(0)).toEqual([
      { toolCallId: 'call_1', content: '{"temperatureC":-3,"sky":"snow"}', isError: false },
      { toolCallId: 'call_2', content: 'No such file: notes.txt', isError: true },
    ]);
    expect(call?.path).toBe('/v1/messages');
    expect(call?.headers['x-api-key']).toBe(TEST_API_KEY);
    expect(call?.headers['anthropic-version']).toBe('2023-06-01');
    expect(call?.body).toMatchObject({
      model: MODEL,
      stream: true,
      max_tokens: 2048,
      system: [{ type: 'text', text: SAMPLE_SYSTEM }],
      tools: [
        {
          name: 'get_weather',
          description: 'The current weather in a city.',
          input_schema: SAMPLE_TOOLS[0]?.inputSchema,
        },
        {
          name: 'read_file',
          description: 'Reads a file in the workspace.',
          input_schema: SAMPLE_TOOLS[1]?.inputSchema,
        },
      ],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'What is the weather in Oslo, and what is in notes.txt?' }] },
        {
          role: 'assistant',
          // Earlier thinking is not sent back: Anthropic accepts it only with its signature.
          content: [
            { type: 'text', text: 'Let me check both.' },
            { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Oslo' } },
            { type: 'tool_use', id: 'call_2', name: 'read_file', input: { path: 'notes.txt' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'call_1', content: '{"temperatureC":-3,"sky":"snow"}' },
            { type: 'tool_result', tool_use_id: 'call_2', content: 'No such file: notes.txt', is_error: true },
            { type: 'text', text: 'Thanks. Anything else?' },
          ],
        },
      ],
    });
    const body = call?.body as { messages: { content: { type: string }[] }[] };
    expect(body.messages[1]?.content.map((part) => part.type)).toEqual(['text', 'tool_use', 'tool_use']);
  });

  it('accepts a base URL given with its /v1', async () => {
    server.enqueue(textReply('Hi.'));
    const { text } = await collectStep(
      streamModelStep({
        target: { providerType: 'anthropic', baseUrl: `${server.baseUrl}/v1/`, apiKey: TEST_API_KEY, modelId: MODEL },
        messages: [{ role: 'user', text: 'Hi' }],
        tools: [],
        signal: new AbortController().signal,
      }),
    );
    expect(text).toBe('Hi.');
    expect(server.modelCalls()[0]?.path).toBe('/v1/messages');
  });
});
