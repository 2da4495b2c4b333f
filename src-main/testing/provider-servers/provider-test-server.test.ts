import { afterEach, describe, expect, it } from 'vitest';
import {
  startGeminiServer,
  startOpenAIChatServer,
  TEST_API_KEY,
  textReply,
  toolCallReply,
  type ProviderTestServer,
} from '.';
import { splitInto } from './scripted-reply';

describe('provider test server', () => {
  let server: ProviderTestServer;
  afterEach(async () => {
    await server.close();
  });

  const post = (body: unknown, key = TEST_API_KEY) =>
    fetch(`${server.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('records each request with its parsed body and how it ended', async () => {
    server = await startOpenAIChatServer();
    server.enqueue(textReply('Hi there', 2));
    const pending = server.waitForModelCall(0);
    const response = await post({ model: 'gpt-4o', stream: true, messages: [] });
    const body = await response.text();
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(body.trim().split('\n\n').at(-1)).toBe('data: [DONE]');
    const call = await pending;
    expect(call).toMatchObject({
      method: 'POST',
      path: '/v1/chat/completions',
      body: { model: 'gpt-4o', stream: true, messages: [] },
    });
    await expect(call.outcome).resolves.toBe('completed');
    expect(call.clientClosedAt).toBeNull();
  });

  it('answers the provider’s own error when nothing is scripted, the key is wrong, or the route is unknown', async () => {
    server = await startOpenAIChatServer();
    expect((await post({ model: 'x' })).status).toBe(500);
    const refused = await post({ model: 'x' }, 'nope');
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: { code: 'invalid_api_key' } });
    expect(
      (await fetch(`${server.origin}/elsewhere`, { headers: { authorization: `Bearer ${TEST_API_KEY}` } })).status,
    ).toBe(404);
    expect(server.requests.map((request) => request.path)).toEqual([
      '/v1/chat/completions',
      '/v1/chat/completions',
      '/elsewhere',
    ]);
  });

  it('finds a tool call’s result in whichever model call sent it back, the newest first', async () => {
    server = await startOpenAIChatServer();
    server.enqueue(textReply('one'), textReply('two'), textReply('three'));
    const result = (toolCallId: string, content: string) => [
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: toolCallId, type: 'function', function: { name: 'get_goal', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: toolCallId, content },
    ];
    await (await post({ model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'hi' }] })).text();
    await (await post({ model: 'gpt-4o', stream: true, messages: result('call_get', 'first') })).text();
    await (
      await post({
        model: 'gpt-4o',
        stream: true,
        messages: [...result('call_get', 'retried'), { role: 'user', content: 'again' }],
      })
    ).text();
    expect(server.toolResultFor('call_get')).toMatchObject({ toolCallId: 'call_get', content: 'retried' });
    expect(server.toolResultFor('call_other')).toBeNull();
  });
});

describe('scripted replies', () => {
  it('splits text into the number of chunks asked for, losing nothing', () => {
    expect(splitInto('abcdefgh', 3)).toEqual(['abc', 'def', 'gh']);
    expect(splitInto('ab', 5)).toEqual(['a', 'b']);
    expect(splitInto('', 3)).toEqual(['']);
  });
});

describe('the Gemini API server', () => {
  it('streams a GenerateContentResponse per chunk, the function call and finish reason last, and reads the function responses sent back', async () => {
    const server = await startGeminiServer();
    try {
      server.enqueue(
        toolCallReply({ id: 'call_1', name: 'write_file', input: { file_path: 'a.txt' } }, 2, ['Writing']),
      );
      const post = (model: string, body: unknown, key = TEST_API_KEY) =>
        fetch(`${server.baseUrl}/v1beta/models/${model}:streamGenerateContent?alt=sse`, {
          method: 'POST',
          headers: { 'x-goog-api-key': key, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const answer = await (await post('gemini-2.5-flash', { contents: [] })).text();
      const events = answer
        .trim()
        .split('\n\n')
        .map(
          (event) =>
            JSON.parse(event.replace(/^data: /, '')) as { candidates: { content: unknown; finishReason?: string }[] },
        );
      expect(events.map((event) => event.candidates[0])).toEqual([
        { content: { role: 'model', parts: [{ text: 'Writing' }] }, index: 0 },
        {
          content: {
            role: 'model',
            parts: [{ functionCall: { id: 'call_1', name: 'write_file', args: { file_path: 'a.txt' } } }],
          },
          index: 0,
          finishReason: 'STOP',
        },
      ]);
      const refused = await post('gemini-2.5-flash', { contents: [] }, 'nope');
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ error: { status: 'INVALID_ARGUMENT' } });
      server.enqueue(textReply('Done'));
      await (
        await post('gemini-2.5-flash', {
          contents: [
            { role: 'model', parts: [{ functionCall: { id: 'call_1', name: 'write_file', args: {} } }] },
            {
              role: 'user',
              parts: [{ functionResponse: { id: 'call_1', name: 'write_file', response: { output: 'ok' } } }],
            },
          ],
        })
      ).text();
      expect(server.modelCalls()).toHaveLength(3);
      expect(server.toolResultFor('call_1')).toEqual({ toolCallId: 'call_1', content: '"ok"', isError: false });
    } finally {
      await server.close();
    }
  });
});
