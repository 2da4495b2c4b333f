import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  hangReply,
  startOpenAIChatServer,
  TEST_API_KEY,
  textReply,
  type ProviderTestServer,
} from '../../../testing/provider-servers';
import { collectStep } from '../../../testing/provider-servers/step-collector';
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
      new Response(
        new ReadableStream({ start: (controller) => controller.enqueue(new TextEncoder().encode(FIRST_CHUNK)) }),
        {
          status: 200,
          headers: { 'content-type': 'text/event-stream' },
        },
      );
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

describe('streamModelStep: timeouts', () => {
  let server: ProviderTestServer;
  beforeEach(async () => {
    server = await startOpenAIChatServer();
  });
  afterEach(async () => {
    await server.close();
  });

  const step = (timeouts: { firstTokenMs: number; idleMs: number }) =>
    collectStep(
      streamModelStep({
        target: { providerType: 'openai', baseUrl: server.baseUrl, apiKey: TEST_API_KEY, modelId: 'gpt-4o', timeouts },
        messages: [{ role: 'user', text: 'Hi' }],
        tools: [],
        signal: new AbortController().signal,
      }),
    );

  it('ends a call that gets no first token in time as timed_out, and closes the request', async () => {
    // The server holds the answer open without sending a single token.
    server.enqueue(hangReply());
    const { events, error } = await step({ firstTokenMs: 200, idleMs: 10_000 });
    expect(events).toEqual([]);
    expect(error).toMatchObject({ errorClass: 'timed_out', transient: false });
    expect((error as Error).message).toContain('sent nothing for 0.2 s');
    await expect(server.modelCalls()[0]!.outcome).resolves.toBe('client_closed');
  });

  it('ends an answer that stalls mid-stream as timed_out after the idle timeout, keeping what arrived', async () => {
    server.enqueue(hangReply(['Part of ', 'an answer']));
    const { events, error } = await step({ firstTokenMs: 10_000, idleMs: 150 });
    expect(events.map((event) => (event.type === 'text_delta' ? event.text : event.type)).join('')).toBe(
      'Part of an answer',
    );
    expect(error).toMatchObject({ errorClass: 'timed_out' });
    expect((error as Error).message).toContain('stopped sending its answer');
    await expect(server.modelCalls()[0]!.outcome).resolves.toBe('client_closed');
  });

  it('lets an answer that keeps arriving finish although it takes longer than the idle timeout in all', async () => {
    server.enqueue(textReply('A complete answer in many small pieces.', 12));
    const { events, error } = await step({ firstTokenMs: 5_000, idleMs: 5_000 });
    expect(error).toBeNull();
    expect(events.at(-1)?.type).toBe('finish');
  });
});
