import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hangReply, startOpenAIChatServer, TEST_API_KEY, type ProviderTestServer } from '../../testing/provider-servers';
import { collectStep } from '../../testing/provider-servers/step-collector';
import type { ModelStepEvent } from './provider-types';
import { streamModelStep } from './stream-model-step';

const FIRST_CHUNK = `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: null }] })}\n\n`;

describe('streamModelStep: stopping', () => {
  let server: ProviderTestServer;
  beforeEach(async () => {
    server = await startOpenAIChatServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('ends promptly as aborted even when the fetch in use ignores the signal', async () => {
    // A body that never ends and never errors: only the step's own race can end the wait.
    const deafFetch: typeof fetch = async () =>
      new Response(new ReadableStream({ start: (controller) => controller.enqueue(new TextEncoder().encode(FIRST_CHUNK)) }), {
        status: 200,
        headers: { 'content-type': 'text/event-stream' },
      });
    const controller = new AbortController();
    const seen: ModelStepEvent[] = [];
    let abortedAt = 0;
    const ended = (async () => {
      for await (const event of streamModelStep({
        target: { providerType: 'openai', baseUrl: 'http://127.0.0.1:9/v1', apiKey: TEST_API_KEY, modelId: 'gpt-4o' },
        messages: [{ role: 'user', text: 'Hi' }],
        tools: [],
        signal: controller.signal,
        fetch: deafFetch,
      })) {
        seen.push(event);
        abortedAt = performance.now();
        controller.abort();
      }
    })();
    await expect(ended).rejects.toMatchObject({ errorClass: 'aborted' });
    expect(performance.now() - abortedAt).toBeLessThan(1000);
    expect(seen).toEqual([{ type: 'text_delta', text: 'Hi' }]);
  });

  it('reports a stop caused by a timeout signal as unreachable, not as a person stopping it', async () => {
    server.enqueue(hangReply());
    const controller = new AbortController();
    const step = collectStep(
      streamModelStep({
        target: { providerType: 'openai', baseUrl: server.baseUrl, apiKey: TEST_API_KEY, modelId: 'gpt-4o' },
        messages: [{ role: 'user', text: 'Hi' }],
        tools: [],
        signal: controller.signal,
      }),
    );
    const call = await server.waitForModelCall(0);
    controller.abort(new DOMException('The operation timed out.', 'TimeoutError'));
    const { error } = await step;
    expect(error).toMatchObject({ errorClass: 'unreachable', transient: true });
    await expect(call.outcome).resolves.toBe('client_closed');
  });
});
