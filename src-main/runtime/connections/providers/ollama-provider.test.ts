import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  errorReply,
  ollamaErrors,
  startOllamaServer,
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
  providerType: 'ollama',
  modelId: 'llama3.2',
  // Ollama has no keys; the key cases run as behind an authenticating proxy (Bearer), as hosted Ollama is.
  startServer: (options) => startOllamaServer({ apiKey: TEST_API_KEY, ...options }),
  errors: [
    {
      name: 'a bad key from a proxy (401)',
      reply: errorReply(401, { error: 'unauthorized' }),
      errorClass: 'bad_key',
      transient: false,
    },
    {
      name: 'a model not pulled (404)',
      reply: ollamaErrors.modelNotFound('llama9'),
      errorClass: 'model_not_found',
      transient: false,
    },
    {
      name: 'a rate limit from hosted Ollama (429 with retry-after)',
      reply: errorReply(429, { error: 'too many requests' }, { 'retry-after': '2' }),
      errorClass: 'rate_limited',
      transient: true,
      retryAfterMs: 2000,
    },
    {
      name: 'an input over the context length (400)',
      reply: errorReply(400, { error: 'input length exceeds the context length' }),
      errorClass: 'context_too_long',
      transient: false,
    },
    { name: 'a crashed runner (500)', reply: ollamaErrors.serverError(), errorClass: 'server_error', transient: true },
  ],
  midStreamError: {
    error: 'an error was encountered while running the model: CUDA error: out of memory',
    errorClass: 'server_error',
    transient: true,
  },
  // Ollama streams `thinking`; its counts are prompt_eval_count and eval_count only.
  carries: { reasoningText: true, cachedTokens: false, reasoningTokens: false },
});

describe('ollama: what the request carries', () => {
  let server: ProviderTestServer;
  beforeEach(async () => {
    server = await startOllamaServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('sends the model id, the tools, the system prompt, the conversation and the output limit to /api/chat', async () => {
    server.enqueue(textReply('Nothing else.'));
    const { error } = await collectStep(
      streamModelStep({
        target: { providerType: 'ollama', baseUrl: server.baseUrl, apiKey: null, modelId: 'qwen3:8b' },
        system: SAMPLE_SYSTEM,
        messages: SAMPLE_CONVERSATION,
        tools: SAMPLE_TOOLS,
        maxOutputTokens: 500,
        signal: new AbortController().signal,
      }),
    );
    expect(error).toBeNull();
    const call = server.modelCalls()[0];
    expect(server.toolResultsIn(0)).toEqual([
      { toolCallId: 'call_1', content: '{"temperatureC":-3,"sky":"snow"}', isError: null },
      { toolCallId: 'call_2', content: 'No such file: notes.txt', isError: null },
    ]);
    expect(call?.path).toBe('/api/chat');
    expect(call?.headers.authorization).toBeUndefined();
    expect(call?.body).toMatchObject({
      model: 'qwen3:8b',
      stream: true,
      options: { num_predict: 500 },
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
          thinking: 'I need the weather tool and the file tool.',
          tool_calls: [
            { function: { name: 'get_weather', arguments: { city: 'Oslo' } } },
            { function: { name: 'read_file', arguments: { path: 'notes.txt' } } },
          ],
        },
        { role: 'tool', content: '{"temperatureC":-3,"sky":"snow"}' },
        { role: 'tool', content: 'No such file: notes.txt' },
        { role: 'user', content: 'Thanks. Anything else?' },
      ],
    });
  });

  it('accepts a base URL given with its /api', async () => {
    server.enqueue(textReply('Hi.'));
    const { text } = await collectStep(
      streamModelStep({
        target: { providerType: 'ollama', baseUrl: `${server.baseUrl}/api`, apiKey: null, modelId: 'llama3.2' },
        messages: [{ role: 'user', text: 'Hi' }],
        tools: [],
        signal: new AbortController().signal,
      }),
    );
    expect(text).toBe('Hi.');
  });
});
