import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestHost, useTempDirs, type TestHost } from '../testing/host-fixture';
import {
  startAnthropicServer,
  startOpenAIChatServer,
  textReply,
  type ProviderTestServer,
} from '../testing/provider-servers';
import { waitFor } from '../testing/wait-for';

/** Issue 19 through the host: search over what was said, exports, instructions and model settings. */
let t: TestHost;
beforeEach(async () => {
  t = await startTestHost();
});
afterEach(async () => {
  await t.close();
});

async function said(text: string, title?: string): Promise<string> {
  const sessionId = (await t.call('session.create', title === undefined ? {} : { title })).session.sessionId;
  await t.call('turn.start', { sessionId, turnId: 't1', text });
  await t.waitForTurn(sessionId, 't1', ['completed']);
  return sessionId;
}

describe('search over what was said', () => {
  const dir = useTempDirs();
  it('finds a word from a message body, with its snippet and where it is', async () => {
    const garden = await said('Remember the rhubarb near the fence', 'Garden');
    await said('Something else entirely', 'Other');
    const { hits } = await t.call('search.messages', { query: 'rhubarb' });
    // The Offline demo's reply repeats the request, so the word is found in both messages of Garden.
    expect(new Set(hits.map((hit) => hit.sessionId))).toEqual(new Set([garden]));
    expect(hits.find((hit) => hit.kind === 'user_message')).toMatchObject({
      sessionId: garden,
      sessionTitle: 'Garden',
      kind: 'user_message',
      position: 0,
    });
    expect(
      hits
        .find((hit) => hit.kind === 'user_message')!
        .snippet.filter((part) => part.hit)
        .map((part) => part.text),
    ).toEqual(['rhubarb']);
  });

  it('includes archived sessions only on request', async () => {
    const sessionId = await said('The quince order is late');
    await t.call('session.archive', { sessionId, archived: true });
    expect((await t.call('search.messages', { query: 'quince' })).hits).toEqual([]);
    const { hits } = await t.call('search.messages', { query: 'quince', includeArchived: true });
    expect(new Set(hits.map((hit) => `${hit.sessionId} ${hit.archived}`))).toEqual(new Set([`${sessionId} true`]));
  });

  it('is still there after a restart, and forgets a removed session', async () => {
    const dataDir = dir();
    await t.close();
    t = await startTestHost({ dataDir });
    const sessionId = await said('Parsnips are sweet after frost');
    await t.close();
    t = await startTestHost({ dataDir });
    expect((await t.call('search.messages', { query: 'parsnip' })).hits.map((hit) => hit.sessionId)).toContain(
      sessionId,
    );
    await t.call('session.remove', { sessionId });
    expect((await t.call('search.messages', { query: 'parsnips' })).hits).toEqual([]);
  });
});

describe('export', () => {
  it('writes Markdown and JSON with every API key masked', async () => {
    const secret = 'zq-private-key-0987654321';
    await t.call('connection.create', {
      name: 'Keyed',
      providerType: 'openai_compatible',
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKey: secret,
    });
    const sessionId = await said(`My key is ${secret} and also sk-abcdefghijklmnop; water the figs`, 'Figs & keys');
    const markdown = await t.call('session.export', { sessionId, format: 'markdown' });
    expect(markdown.fileName).toMatch(/^figs-keys-\d{4}-\d{2}-\d{2}\.md$/);
    expect(markdown.content).toContain('# Figs & keys');
    expect(markdown.content).toContain('## You\n\nMy key is [redacted] and also [redacted]; water the figs');
    expect(markdown.content).toContain('## Agent');
    expect(markdown.content).not.toContain(secret);
    const json = await t.call('session.export', { sessionId, format: 'json' });
    expect(json.mimeType).toBe('application/json');
    expect(json.content).not.toContain(secret);
    expect(json.content).not.toContain('sk-abcdefghijklmnop');
    const record = JSON.parse(json.content) as {
      format: string;
      session: { sessionId: string };
      transcript: Array<{ kind: string; text: string }>;
      turns: unknown[];
    };
    expect(record.format).toBe('cairn.session');
    expect(record.session.sessionId).toBe(sessionId);
    expect(record.transcript.map((item) => item.kind)).toEqual(['user_message', 'assistant_message']);
    expect(record.turns).toHaveLength(1);
  });

  it('writes /ask as the questions asked and the answers given, and a stopped-then-continued answer as one section', async () => {
    const sessionId = (await t.call('session.create', { title: 'Asked' })).session.sessionId;
    await t.call('turn.start', { sessionId, turnId: 'ask', text: '/ask' });
    await t.waitForTurn(sessionId, 'ask', ['waiting']);
    const [interaction] = (await t.call('interaction.list', { sessionId, status: 'pending' })).interactions;
    await t.call('interaction.answer', {
      interactionId: interaction!.interactionId,
      answer: {
        action: 'accept',
        answers: {
          target: { optionIds: ['production'] },
          checks: { optionIds: ['lint'] },
          notes: { optionIds: [], text: 'Ship on Friday' },
        },
      },
    });
    await t.waitForTurn(sessionId, 'ask', ['completed']);
    await t.call('turn.start', { sessionId, turnId: 'long', text: '/stream 40 100' });
    await waitFor(
      async () =>
        (await t.call('session.get', { sessionId })).transcript.items.some(
          (item) => item.kind === 'assistant_message' && item.text.includes('chunk 2/40'),
        ),
      {
        message: 'the answer to start',
      },
    );
    await t.call('turn.stop', { sessionId, turnId: 'long' });
    await t.waitForTurn(sessionId, 'long', ['cancelled']);
    await t.call('turn.resume', { sessionId, turnId: 'long' });
    await t.waitForTurn(sessionId, 'long', ['completed']);

    const { content } = await t.call('session.export', { sessionId, format: 'markdown' });
    expect(content).toContain('**The agent asked:**');
    expect(content).toContain('**You answered:**\n\n- **Deploy target:** Production');
    expect(content).toContain('Ship on Friday');
    expect(content).not.toContain('"questions"');
    const streamed = content.slice(content.indexOf('## You\n\n/stream'));
    expect(streamed.match(/^## Agent$/gm)).toHaveLength(1);
    expect(streamed).toMatch(
      /^## Agent\n\nchunk 1\/40 .*chunk 40\/40\.\n\n_This answer was cut off, then continued\._$/m,
    );
  });

  it('says the desktop save dialog is not there in the headless host', async () => {
    const sessionId = await said('hello');
    const outcome = await t.invoke('session.saveExport', { sessionId, format: 'json' });
    expect(outcome.ok ? null : outcome.error.code).toBe('operation_unavailable');
  });
});

describe('instructions and model settings', () => {
  let server: ProviderTestServer;
  afterEach(async () => {
    await server.close();
  });

  async function sessionOn(
    providerType: 'openai_compatible' | 'anthropic',
  ): Promise<{ sessionId: string; connectionId: string }> {
    const { connection } = await t.call('connection.create', {
      name: 'Local',
      providerType,
      baseUrl: server.baseUrl,
      apiKey: 'test-key',
    });
    const { session } = await t.call('session.create', { connectionId: connection.connectionId, model: 'test-model' });
    return { sessionId: session.sessionId, connectionId: connection.connectionId };
  }

  it('puts global and session instructions in the system prompt and the session’s settings over the connection’s in the request', async () => {
    server = await startOpenAIChatServer({ models: ['test-model'] });
    const { sessionId, connectionId } = await sessionOn('openai_compatible');
    await t.call('settings.setInstructions', { instructions: 'Answer in British English.' });
    await t.call('connection.setModelSettings', {
      connectionId,
      modelSettings: { temperature: 0.2, maxOutputTokens: 900 },
    });
    const preferences = await t.call('session.setPreferences', {
      sessionId,
      instructions: '  Be brief.  ',
      modelSettings: { temperature: 0.7, reasoningEffort: 'high' },
    });
    expect(preferences).toEqual({
      instructions: 'Be brief.',
      modelSettings: { temperature: 0.7, reasoningEffort: 'high' },
      globalInstructions: 'Answer in British English.',
      connectionModelSettings: { temperature: 0.2, maxOutputTokens: 900 },
    });
    server.enqueue(textReply('Right.'));
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Hello' });
    await t.waitForTurn(sessionId, 't1', ['completed']);
    const body = (await server.waitForModelCall(0)).body as {
      messages: Array<{ role: string; content: string }>;
      temperature?: number;
      max_tokens?: number;
      reasoning_effort?: string;
    };
    const system = body.messages.find((message) => message.role === 'system')?.content ?? '';
    expect(system).toContain('Instructions from the person for every session:\nAnswer in British English.');
    expect(system).toContain('Instructions from the person for this session:\nBe brief.');
    expect(system.indexOf('British')).toBeLessThan(system.indexOf('Be brief'));
    expect(body.temperature).toBe(0.7);
    expect(body.max_tokens).toBe(900);
    expect(body.reasoning_effort).toBe('high');
  });

  it('sends reasoning effort to Anthropic as its effort setting', async () => {
    server = await startAnthropicServer({ models: ['test-model'] });
    const { sessionId } = await sessionOn('anthropic');
    await t.call('session.setPreferences', {
      sessionId,
      modelSettings: { reasoningEffort: 'low', maxOutputTokens: 1234 },
    });
    server.enqueue(textReply('Done.'));
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Hi' });
    await t.waitForTurn(sessionId, 't1', ['completed']);
    const body = (await server.waitForModelCall(0)).body as {
      max_tokens?: number;
      output_config?: { effort?: string };
    };
    expect(body.max_tokens).toBe(1234);
    expect(body.output_config?.effort).toBe('low');
  });

  it('refuses settings out of range, and preferences of a session that does not exist', async () => {
    const sessionId = await said('hi');
    const bad = await t.invoke('session.setPreferences', { sessionId, modelSettings: { temperature: 5 } });
    expect(bad.ok ? null : bad.error.code).toBe('invalid_input');
    const missing = await t.invoke('session.preferences', { sessionId: 'nope' });
    expect(missing.ok ? null : missing.error.code).toBe('not_found');
  });
});

describe('titles that name the work', () => {
  let server: ProviderTestServer;
  afterEach(async () => {
    await server.close();
  });

  async function modelSession(logger?: { warnings: string[] }) {
    await t.close();
    t = await startTestHost({
      modelTitles: true,
      ...(logger === undefined
        ? {}
        : {
            logger: { info: () => {}, error: () => {}, warn: (message: string) => void logger.warnings.push(message) },
          }),
    });
    server = await startOpenAIChatServer({ models: ['test-model'] });
    const { connection } = await t.call('connection.create', {
      name: 'Local',
      providerType: 'openai_compatible',
      baseUrl: server.baseUrl,
      apiKey: 'test-key',
    });
    return (await t.call('session.create', { connectionId: connection.connectionId, model: 'test-model' })).session
      .sessionId;
  }

  const titleOf = async (sessionId: string) => (await t.call('session.get', { sessionId })).session.title;

  it('asks the session’s model for a short title after the first exchange, and counts the call in usage', async () => {
    const sessionId = await modelSession();
    server.enqueue(
      textReply('Water them every morning.', 1, { inputTokens: 100, outputTokens: 10 }),
      textReply('"Tomato watering schedule."', 1, { inputTokens: 60, outputTokens: 5 }),
    );
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'how often should I water my tomatoes' });
    await t.waitForTurn(sessionId, 't1', ['completed']);
    await waitFor(async () => (await titleOf(sessionId)) === 'Tomato watering schedule');
    const call = (await server.waitForModelCall(1)).body as {
      messages: Array<{ role: string; content: string }>;
      tools?: unknown;
    };
    expect(call.tools).toBeUndefined();
    expect(call.messages.at(-1)?.content).toContain('Person: how often should I water my tomatoes');
    const usage = await t.call('usage.summary', { by: 'session', sessionId });
    expect(usage.totals).toMatchObject({ calls: 2, inputTokens: 160, outputTokens: 15 });
    // A second exchange does not rename the session.
    server.enqueue(textReply('Sure.'));
    await t.call('turn.start', { sessionId, turnId: 't2', text: 'thanks' });
    await t.waitForTurn(sessionId, 't2', ['completed']);
    expect(server.modelCalls()).toHaveLength(3);
    expect(await titleOf(sessionId)).toBe('Tomato watering schedule');
    const byModel = await t.call('usage.summary', { by: 'model' });
    expect(byModel.groups.map((group) => [group.label, group.calls])).toEqual([['test-model · Local', 3]]);
  });

  it('keeps the first-line title when the title call fails', async () => {
    const logger = { warnings: [] as string[] };
    const sessionId = await modelSession(logger);
    server.enqueue(textReply('Here is the plan.'));
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Plan the spring release\nwith details' });
    await t.waitForTurn(sessionId, 't1', ['completed']);
    await waitFor(() =>
      logger.warnings.some((message) => message.startsWith('The session title could not be written')),
    );
    expect(await titleOf(sessionId)).toBe('Plan the spring release');
  });
});

describe('titles on the Offline demo', () => {
  const titleOf = async (sessionId: string) => (await t.call('session.get', { sessionId })).session.title;

  it('makes no title call for the Offline demo, whose title is the first line', async () => {
    await t.close();
    t = await startTestHost({ modelTitles: true });
    const sessionId = await said('/tool get_current_time {}');
    expect(await titleOf(sessionId)).toBe('Tool call: get_current_time');
    // The demo's own step is the only call recorded: no title call was made.
    expect((await t.call('usage.summary', { by: 'session', sessionId })).totals.calls).toBe(1);
  });
});
