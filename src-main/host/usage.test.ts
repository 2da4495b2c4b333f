import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../testing/host-fixture';
import { startOpenAIChatServer, TEST_API_KEY, textReply, type ProviderTestServer } from '../testing/provider-servers';

let t: TestHost;
let server: ProviderTestServer;
beforeEach(async () => {
  server = await startOpenAIChatServer({ models: ['gpt-4o-mini', 'local-model'] });
  t = await startTestHost();
});
afterEach(async () => {
  await t.close();
  await server.close();
});

describe('usage cost', () => {
  it('is unknown (null), never $0, for a turn, a session and a day that include a call whose price is unknown', async () => {
    const { connection } = await t.call('connection.create', {
      name: 'Local server',
      providerType: 'openai_compatible',
      baseUrl: server.baseUrl,
      apiKey: TEST_API_KEY,
    });
    const { session } = await t.call('session.create', { connectionId: connection.connectionId, model: 'gpt-4o-mini' });
    const sessionId = session.sessionId;
    server.enqueue(textReply('priced', 1, { inputTokens: 1000, outputTokens: 200 }));
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'one' });
    const priced = await t.waitForTurn(sessionId, 't1', ['completed']);
    expect(priced.usage?.costUsd).toBeGreaterThan(0);
    expect((await t.call('usage.summary', { by: 'session', sessionId })).totals.costUsd).toBeGreaterThan(0);

    await t.call('session.configure', { sessionId, model: 'local-model' });
    server.enqueue(textReply('unpriced', 1, { inputTokens: 500, outputTokens: 50 }));
    await t.call('turn.start', { sessionId, turnId: 't2', text: 'two' });
    const unpriced = await t.waitForTurn(sessionId, 't2', ['completed']);
    expect(unpriced.usage).toMatchObject({ inputTokens: 500, outputTokens: 50, costUsd: null });

    const bySession = await t.call('usage.summary', { by: 'session', sessionId });
    expect(bySession.totals).toMatchObject({ calls: 2, inputTokens: 1500, costUsd: null });
    expect(bySession.groups[0]).toMatchObject({ key: sessionId, costUsd: null });
    expect((await t.call('usage.summary', { by: 'day' })).groups[0]?.costUsd).toBeNull();
  });
});
