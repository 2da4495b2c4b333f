import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../testing/host-fixture';
import {
  hangReply,
  openAIErrors,
  startOpenAIChatServer,
  streamReply,
  TEST_API_KEY,
  textReply,
  toolCallReply,
  type ProviderTestServer,
} from '../testing/provider-servers';
import { waitFor } from '../testing/wait-for';

let t: TestHost;
let server: ProviderTestServer;
let sessionId: string;

beforeEach(async () => {
  server = await startOpenAIChatServer({ models: ['gpt-4o-mini', 'local-model'] });
  t = await startTestHost({ retryBaseMs: 5 });
  const { connection } = await t.call('connection.create', {
    name: 'Local server',
    providerType: 'openai_compatible',
    baseUrl: server.baseUrl,
    apiKey: TEST_API_KEY,
  });
  sessionId = (await t.call('session.create', { connectionId: connection.connectionId, model: 'gpt-4o-mini' })).session
    .sessionId;
});
afterEach(async () => {
  await t.close();
  await server.close();
});

const items = async () => (await t.call('transcript.page', { sessionId, limit: 100 })).items;

describe('the built-in agent over a real provider wire format', () => {
  it('streams a reply, records usage and cost on the turn', async () => {
    server.enqueue(textReply('Hello from the model, streamed in pieces.', 4, { inputTokens: 1000, outputTokens: 200 }));
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Say hello' });
    const turn = await t.waitForTurn(sessionId, 't1', ['completed']);
    expect((await items()).map((item) => [item.kind, item.text])).toEqual([
      ['user_message', 'Say hello'],
      ['assistant_message', 'Hello from the model, streamed in pieces.'],
    ]);
    expect(turn.usage).toMatchObject({ inputTokens: 1000, outputTokens: 200 });
    expect(turn.usage?.costUsd).toBeGreaterThan(0);
    const body = (await server.waitForModelCall(0)).body as {
      model: string;
      messages: Array<{ role: string; content: unknown }>;
      tools?: unknown[];
    };
    expect(body.model).toBe('gpt-4o-mini');
    expect(body.messages.at(-1)).toMatchObject({ role: 'user' });
    expect(JSON.stringify(body.tools)).toContain('get_current_time');
    const summary = await t.call('usage.summary', { by: 'session' });
    expect(summary.totals).toMatchObject({ calls: 1, inputTokens: 1000, outputTokens: 200 });
    expect(summary.groups[0]).toMatchObject({ key: sessionId, calls: 1 });
    const byDay = await t.call('usage.summary', { by: 'day', sessionId });
    expect(byDay.groups[0]?.key).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('runs a tool call between steps and sends its result back in the next request', async () => {
    server.enqueue(
      toolCallReply({ id: 'call_1', name: 'get_current_time', input: { timeZone: 'Europe/Paris' } }, 4, [
        'Let me check. ',
      ]),
      textReply('It is morning in Paris.'),
    );
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'What time is it in Paris?' });
    await t.waitForTurn(sessionId, 't1', ['completed']);
    expect((await items()).map((item) => item.kind)).toEqual([
      'user_message',
      'assistant_message',
      'tool_call',
      'tool_result',
      'assistant_message',
    ]);
    const call = (await items())[2];
    expect(call?.data).toEqual({
      toolCallId: 'call_1',
      toolName: 'get_current_time',
      input: { timeZone: 'Europe/Paris' },
    });
    const second = (await server.waitForModelCall(1)).body as {
      messages: Array<{ role: string; tool_call_id?: string; content?: unknown; tool_calls?: unknown[] }>;
    };
    const toolMessage = second.messages.find((message) => message.role === 'tool');
    expect(toolMessage?.tool_call_id).toBe('call_1');
    expect(String(toolMessage?.content)).toContain('Europe/Paris');
    expect(second.messages.find((message) => message.role === 'assistant')?.tool_calls).toHaveLength(1);
  });

  it('Stop aborts the in-flight request: the server sees the connection closed', async () => {
    server.enqueue(hangReply(['Thinking about it']));
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Take your time' });
    const request = await server.waitForModelCall(0);
    await waitFor(async () => (await items()).some((item) => item.text.includes('Thinking')), {
      message: 'first text',
    });
    const stop = await t.call('turn.stop', { sessionId });
    expect(stop.turn?.status).toBe('cancelled');
    expect(await request.outcome).toBe('client_closed');
  });

  it('retries a transient error with backoff, then succeeds', async () => {
    server.enqueue(openAIErrors.serverError(), openAIErrors.rateLimited(0), textReply('Third time lucky.'));
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Try' });
    const turn = await t.waitForTurn(sessionId, 't1', ['completed', 'failed']);
    expect(turn.status).toBe('completed');
    expect(server.modelCalls()).toHaveLength(3);
  });

  it.each([
    ['bad_key', openAIErrors.invalidApiKey()],
    ['model_not_found', openAIErrors.modelNotFound('gpt-4o-mini')],
    ['context_too_long', openAIErrors.contextLengthExceeded()],
    ['usage_limit', openAIErrors.insufficientQuota()],
  ])('fails the turn plainly on %s, without retrying', async (errorClass, reply) => {
    server.enqueue(reply);
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Go' });
    const turn = await t.waitForTurn(sessionId, 't1', ['failed']);
    expect(turn.latestRun.errorCode).toBe(errorClass);
    expect(turn.latestRun.errorMessage).not.toContain(TEST_API_KEY);
    expect(server.modelCalls()).toHaveLength(1);
  });

  it('fails with the class once transient retries are exhausted', async () => {
    server.enqueue(
      openAIErrors.serverError(),
      openAIErrors.serverError(),
      openAIErrors.serverError(),
      openAIErrors.serverError(),
    );
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Go' });
    const turn = await t.waitForTurn(sessionId, 't1', ['failed']);
    expect(turn.latestRun).toMatchObject({ errorCode: 'server_error', terminalReason: 'provider_error' });
    expect(server.modelCalls()).toHaveLength(4);
  });

  it('records reasoning separately from the answer', async () => {
    server.enqueue(streamReply({ reasoning: ['Let me ', 'think.'], text: ['Answer.'] }));
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Why?' });
    await t.waitForTurn(sessionId, 't1', ['completed']);
    const kinds = (await items()).map((item) => item.kind);
    expect(kinds).toEqual(['user_message', 'reasoning', 'assistant_message']);
    expect((await items())[1]?.text).toBe('Let me think.');
  });

  it('fetches models and tests the connection with clear verdicts', async () => {
    const { connections } = await t.call('connection.list', {});
    const connectionId = connections[1]?.connectionId ?? '';
    const fetched = await t.call('connection.models.fetch', { connectionId });
    expect(fetched.connection.models.map((model) => model.modelId)).toEqual(['gpt-4o-mini', 'local-model']);
    expect(fetched.connection.modelsFetchedAt).not.toBeNull();
    expect((await t.call('connection.test', { connectionId })).verdict).toBe('ok');
    expect((await t.call('connection.test', { connectionId, modelId: 'nope' })).verdict).toBe('model_unknown');
    const wrongKey = await t.call('connection.create', {
      name: 'Wrong key',
      providerType: 'openai_compatible',
      baseUrl: server.baseUrl,
      apiKey: 'sk-wrong-key',
    });
    expect((await t.call('connection.test', { connectionId: wrongKey.connection.connectionId })).verdict).toBe(
      'bad_key',
    );
    const closed = await startOpenAIChatServer();
    const closedUrl = closed.baseUrl;
    await closed.close();
    const gone = await t.call('connection.create', {
      name: 'Gone',
      providerType: 'openai_compatible',
      baseUrl: closedUrl,
    });
    expect((await t.call('connection.test', { connectionId: gone.connection.connectionId })).verdict).toBe(
      'unreachable',
    );
  });
});

describe('ask_user through a real provider', () => {
  it('the model asks, the person answers, and the answer reaches the model as the tool result', async () => {
    server.enqueue(
      toolCallReply(
        {
          id: 'call_ask',
          name: 'ask_user',
          input: {
            questions: [
              {
                question: 'Which database?',
                header: 'Database',
                options: [{ label: 'SQLite' }, { label: 'Postgres' }],
              },
            ],
          },
        },
        5,
      ),
      textReply('SQLite it is.'),
    );
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Set up storage' });
    await t.waitForTurn(sessionId, 't1', ['waiting']);
    const { interactions } = await t.call('interaction.list', { status: 'pending' });
    expect(interactions[0]?.request).toMatchObject({
      kind: 'question',
      questions: [{ id: 'q1', header: 'Database', prompt: 'Which database?' }],
    });
    expect(server.modelCalls()).toHaveLength(1);
    await t.call('interaction.answer', {
      interactionId: interactions[0]?.interactionId ?? '',
      answer: { action: 'accept', answers: { q1: { optionIds: ['o1'] } } },
    });
    await t.waitForTurn(sessionId, 't1', ['completed']);
    const next = (await server.waitForModelCall(1)).body as {
      messages: Array<{ role: string; tool_call_id?: string; content?: unknown; tool_calls?: Array<{ id: string }> }>;
    };
    const assistant = next.messages.find((message) => message.role === 'assistant');
    expect(assistant?.tool_calls?.[0]?.id).toBe('call_ask');
    const toolMessage = next.messages.find((message) => message.role === 'tool');
    expect(toolMessage?.tool_call_id).toBe('call_ask');
    expect(JSON.parse(String(toolMessage?.content))).toMatchObject({
      action: 'accept',
      answers: [{ header: 'Database', selected: ['SQLite'] }],
    });
  });

  it('a secret answer reaches the model but never the transcript', async () => {
    const SECRET = 'pw-91b2-never-shown';
    server.enqueue(
      toolCallReply({
        id: 'call_pw',
        name: 'ask_user',
        input: { questions: [{ question: 'Database password?', header: 'Password', secret: true }] },
      }),
      textReply('Connected.'),
    );
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Connect to the database' });
    await t.waitForTurn(sessionId, 't1', ['waiting']);
    const { interactions } = await t.call('interaction.list', { status: 'pending' });
    await t.call('interaction.answer', {
      interactionId: interactions[0]?.interactionId ?? '',
      answer: { action: 'accept', answers: { q1: { optionIds: [], text: SECRET } } },
    });
    await t.waitForTurn(sessionId, 't1', ['completed']);
    expect(JSON.stringify((await server.waitForModelCall(1)).body)).toContain(SECRET);
    expect(JSON.stringify(await t.call('transcript.page', { sessionId }))).not.toContain(SECRET);
  });
});

describe('the WorkHub router as a model call', () => {
  it('asks for structured output through the propose tool and parses the proposal', async () => {
    const { connections } = await t.call('connection.list', {});
    const connectionId = connections[1]?.connectionId ?? '';
    await t.call('connection.models.fetch', { connectionId });
    await t.call('connection.setDefault', { connectionId, modelId: 'gpt-4o-mini' });
    const report = (await t.call('session.create', { title: 'Quarterly report', connectionId: 'offline-demo' })).session
      .sessionId;
    server.enqueue(
      toolCallReply({
        id: 'call_route',
        name: 'propose',
        input: { kind: 'delegate_existing', candidateRef: 'c1', why: 'It is about the report.', text: 'Add the chart' },
      }),
    );
    const routed = await t.call('workhub.route', { requestId: 'r1', text: 'Add the chart to the quarterly report' });
    expect(routed.proposal).toEqual({ kind: 'delegate_existing', candidateRef: 'c1', text: 'Add the chart' });
    expect(routed.why).toBe('It is about the report.');
    expect(routed.candidates[0]?.sessionId).toBe(report);
    const body = (await server.waitForModelCall(0)).body as {
      tools: Array<{ function: { name: string } }>;
      messages: Array<{ content: unknown }>;
    };
    expect(body.tools.map((tool) => tool.function.name)).toEqual(['propose']);
    expect(JSON.stringify(body.messages)).toContain('c1: “Quarterly report”');
  });
});

describe('first-run discovery', () => {
  it('offers the local servers that answer and skips the ones that do not', async () => {
    const ollama = await startOpenAIChatServer({ apiKey: null, models: ['llama3.2'] });
    const closed = await startOpenAIChatServer();
    const closedUrl = closed.baseUrl;
    await closed.close();
    const host = await startTestHost({
      discoveryProbes: [
        { providerType: 'openai_compatible', name: 'LM Studio', baseUrl: ollama.baseUrl },
        { providerType: 'openai_compatible', name: 'Nothing here', baseUrl: closedUrl },
      ],
    });
    try {
      const { servers } = await host.call('connection.discover', {});
      expect(servers).toEqual([
        {
          providerType: 'openai_compatible',
          name: 'LM Studio',
          baseUrl: ollama.baseUrl,
          models: [{ modelId: 'llama3.2', label: 'llama3.2' }],
        },
      ]);
    } finally {
      await host.close();
      await ollama.close();
    }
  });
});
