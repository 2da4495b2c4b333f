import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  streamModelStep,
  type ModelStepEvent,
  type ModelStepRequest,
  type ProviderErrorClass,
  type ProviderType,
} from '../../runtime/connections/providers';
import type { ProviderTestServer, ProviderTestServerOptions } from './provider-test-server';
import { TEST_API_KEY } from './provider-test-server';
import {
  hangReply,
  midStreamErrorReply,
  streamReply,
  textReply,
  toolCallReply,
  type ScriptedError,
} from './scripted-reply';
import { collectStep } from './step-collector';

/** One error answer a provider really gives, and what it must become. */
export interface ErrorCase {
  readonly name: string;
  readonly reply: ScriptedError;
  readonly errorClass: ProviderErrorClass;
  readonly transient: boolean;
  readonly retryAfterMs?: number;
}

/** How one provider is tested against its server. */
export interface ProviderFixture {
  readonly providerType: ProviderType;
  readonly modelId: string;
  startServer(options?: ProviderTestServerOptions): Promise<ProviderTestServer>;
  readonly errors: readonly ErrorCase[];
  /** The provider's in-stream error event (its inner error object) and what it must become. */
  readonly midStreamError: {
    readonly error: unknown;
    readonly errorClass: ProviderErrorClass;
    readonly transient: boolean;
  };
  /** Whether the wire format streams reasoning text, and carries cached and reasoning token counts. */
  readonly carries: {
    readonly reasoningText: boolean;
    readonly cachedTokens: boolean;
    readonly reasoningTokens: boolean;
  };
}

/** How long a stopped step may take to end: far above a local round trip, far below a human's patience. */
const PROMPT_MS = 1000;

/** The behaviour every provider must show against a server speaking its real wire format. */
export function describeProviderContract(fixture: ProviderFixture): void {
  describe(`${fixture.providerType}: streaming against its wire format`, () => {
    let server: ProviderTestServer;
    beforeEach(async () => {
      server = await fixture.startServer();
    });
    afterEach(async () => {
      await server.close();
    });

    const request = (overrides: Partial<ModelStepRequest> = {}): ModelStepRequest => ({
      target: {
        providerType: fixture.providerType,
        baseUrl: server.baseUrl,
        apiKey: TEST_API_KEY,
        modelId: fixture.modelId,
      },
      messages: [{ role: 'user', text: 'Hello?' }],
      tools: [
        {
          name: 'get_weather',
          description: 'The weather in a city.',
          inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
      ],
      signal: new AbortController().signal,
      ...overrides,
    });

    it('streams the text as several deltas, in order, then one finish', async () => {
      server.enqueue(streamReply({ text: ['The ', 'sky ', 'is ', 'blue.'] }));
      const { events, error } = await collectStep(streamModelStep(request()));
      expect(error).toBeNull();
      expect(events.filter((event) => event.type === 'text_delta')).toEqual(
        ['The ', 'sky ', 'is ', 'blue.'].map((text) => ({ type: 'text_delta', text })),
      );
      expect(events.filter((event) => event.type === 'finish')).toHaveLength(1);
      expect(events.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
    });

    it(
      fixture.carries.reasoningText ? 'streams reasoning before the text' : 'has no reasoning text in this format',
      async () => {
        server.enqueue(streamReply({ reasoning: ['Let me ', 'think.'], text: ['Done.'] }));
        const { events } = await collectStep(streamModelStep(request()));
        const kinds = events.map((event) => event.type);
        if (fixture.carries.reasoningText) {
          expect(kinds).toEqual(['reasoning_delta', 'reasoning_delta', 'text_delta', 'finish']);
          expect(events.slice(0, 2)).toEqual([
            { type: 'reasoning_delta', text: 'Let me ' },
            { type: 'reasoning_delta', text: 'think.' },
          ]);
        } else {
          expect(kinds).toEqual(['text_delta', 'finish']);
        }
      },
    );

    it('reports a tool call whose arguments arrive in pieces as one call with the parsed input', async () => {
      const input = { city: 'Reykjavík', days: 3, units: { temperature: 'celsius' } };
      server.enqueue(toolCallReply({ id: 'call_weather_1', name: 'get_weather', input }, 5, ['Checking.']));
      const { events, error } = await collectStep(streamModelStep(request()));
      expect(error).toBeNull();
      const calls = events.filter((event) => event.type === 'tool_call');
      expect(calls).toHaveLength(1);
      expect(calls[0]).toMatchObject({ toolName: 'get_weather', input });
      expect(calls[0]?.toolCallId).toMatch(/\S/);
      expect(events.at(-1)).toMatchObject({ type: 'finish', finishReason: 'tool_calls' });
    });

    it('reports two tool calls of one step, each complete', async () => {
      server.enqueue(
        streamReply({
          toolCalls: [
            { id: 'call_a', name: 'get_weather', argumentChunks: ['{"ci', 'ty":"Oslo"}'] },
            { id: 'call_b', name: 'get_weather', argumentChunks: ['{"city"', ':"Lima"}'] },
          ],
        }),
      );
      const { events } = await collectStep(streamModelStep(request()));
      const inputs = events.flatMap((event) => (event.type === 'tool_call' ? [event.input] : []));
      expect(inputs).toEqual([{ city: 'Oslo' }, { city: 'Lima' }]);
    });

    it('reports the usage the provider sent', async () => {
      server.enqueue(
        streamReply({
          text: ['ok'],
          usage: { inputTokens: 1234, outputTokens: 567, cachedInputTokens: 200, reasoningTokens: 89 },
        }),
      );
      const { events } = await collectStep(streamModelStep(request()));
      const finish = events.at(-1) as Extract<ModelStepEvent, { type: 'finish' }>;
      expect(finish.usage).toEqual({
        inputTokens: 1234,
        outputTokens: 567,
        cachedInputTokens: fixture.carries.cachedTokens ? 200 : 0,
        reasoningTokens: fixture.carries.reasoningTokens ? 89 : 0,
      });
      expect(finish.latencyMs).toBeGreaterThanOrEqual(0);
    });

    it('reports a reply cut at the output limit as finishing for length', async () => {
      server.enqueue(streamReply({ text: ['Once upon a'], finishReason: 'length' }));
      const { events } = await collectStep(streamModelStep(request()));
      expect(events.at(-1)).toMatchObject({ type: 'finish', finishReason: 'length' });
    });

    it.each(fixture.errors)('classifies $name', async (errorCase) => {
      server.enqueue(errorCase.reply);
      const { events, error } = await collectStep(streamModelStep(request()));
      expect(events).toEqual([]);
      expect(error).toMatchObject({
        errorClass: errorCase.errorClass,
        transient: errorCase.transient,
        status: errorCase.reply.status,
      });
      expect(error?.retryAfterMs).toBe(errorCase.retryAfterMs ?? null);
      expect(error?.message).toMatch(/\S/);
    });

    it('classifies an error event inside an open stream, after the text it sent', async () => {
      server.enqueue(midStreamErrorReply(['Half an ans'], fixture.midStreamError.error));
      const { events, error } = await collectStep(streamModelStep(request()));
      expect(events).toEqual([{ type: 'text_delta', text: 'Half an ans' }]);
      expect(error).toMatchObject({
        errorClass: fixture.midStreamError.errorClass,
        transient: fixture.midStreamError.transient,
      });
    });

    it('never repeats the API key in an error message', async () => {
      const secret = 'sk-proj-SECRETsecret0123456789';
      const { error } = await collectStep(
        streamModelStep(
          request({
            target: {
              providerType: fixture.providerType,
              baseUrl: server.baseUrl,
              apiKey: secret,
              modelId: fixture.modelId,
            },
          }),
        ),
      );
      expect(error?.errorClass).toBe('bad_key');
      expect(error?.message).not.toContain(secret);
      expect(error?.message).not.toContain('SECRETsecret');
    });

    it('classifies a connection dropped in the middle of the answer as unreachable', async () => {
      server.enqueue(streamReply({ text: ['Hel', 'lo'], ending: 'drop' }));
      const { events, error } = await collectStep(streamModelStep(request()));
      expect(events.map((event) => event.type)).toEqual(['text_delta', 'text_delta']);
      expect(error).toMatchObject({ errorClass: 'unreachable', transient: true, status: null });
      await expect(server.modelCalls()[0]?.outcome).resolves.toBe('dropped');
    });

    it('stops mid-stream: the server sees the connection closed and the step ends promptly as aborted', async () => {
      server.enqueue(hangReply(['Partial ', 'answer']));
      const controller = new AbortController();
      const seen: ModelStepEvent[] = [];
      let abortedAt = 0;
      const ended = (async () => {
        for await (const event of streamModelStep(request({ signal: controller.signal }))) {
          seen.push(event);
          if (seen.length === 2) {
            abortedAt = performance.now();
            controller.abort();
          }
        }
      })();
      await expect(ended).rejects.toMatchObject({ name: 'ProviderError', errorClass: 'aborted', transient: false });
      expect(performance.now() - abortedAt).toBeLessThan(PROMPT_MS);
      expect(seen).toEqual([
        { type: 'text_delta', text: 'Partial ' },
        { type: 'text_delta', text: 'answer' },
      ]);
      const call = server.modelCalls()[0];
      await expect(call?.outcome).resolves.toBe('client_closed');
      expect(call?.clientClosedAt).not.toBeNull();
    });

    it('stops before the answer has begun: the request is closed and the step ends as aborted', async () => {
      server.enqueue(hangReply());
      const controller = new AbortController();
      const step = collectStep(streamModelStep(request({ signal: controller.signal })));
      const call = await server.waitForModelCall(0);
      const abortedAt = performance.now();
      controller.abort();
      const { events, error } = await step;
      expect(performance.now() - abortedAt).toBeLessThan(PROMPT_MS);
      expect(events).toEqual([]);
      expect(error?.errorClass).toBe('aborted');
      await expect(call.outcome).resolves.toBe('client_closed');
    });

    it('closes the request when the caller stops reading early', async () => {
      server.enqueue(hangReply(['First']));
      for await (const event of streamModelStep(request())) {
        expect(event).toEqual({ type: 'text_delta', text: 'First' });
        break;
      }
      await expect(server.modelCalls()[0]?.outcome).resolves.toBe('client_closed');
    });

    it('does not call the provider when the signal is already aborted', async () => {
      const controller = new AbortController();
      controller.abort();
      const { error } = await collectStep(streamModelStep(request({ signal: controller.signal })));
      expect(error?.errorClass).toBe('aborted');
      expect(server.requests).toHaveLength(0);
    });

    it('answers in order when several steps are queued', async () => {
      server.enqueue(textReply('first reply', 2), textReply('second reply', 2));
      expect((await collectStep(streamModelStep(request()))).text).toBe('first reply');
      expect((await collectStep(streamModelStep(request()))).text).toBe('second reply');
      expect(server.modelCalls()).toHaveLength(2);
    });
  });

  describe(`${fixture.providerType}: an unreachable server`, () => {
    it('classifies a closed port as unreachable and transient', async () => {
      const closed = await fixture.startServer();
      await closed.close();
      const { error } = await collectStep(
        streamModelStep({
          target: {
            providerType: fixture.providerType,
            baseUrl: closed.baseUrl,
            apiKey: TEST_API_KEY,
            modelId: fixture.modelId,
          },
          messages: [{ role: 'user', text: 'Hello?' }],
          tools: [],
          signal: new AbortController().signal,
        }),
      );
      expect(error).toMatchObject({ errorClass: 'unreachable', transient: true, status: null });
      expect(error?.message).toMatch(/refused/);
    });
  });
}
