import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../../testing/host-fixture';
import { hangReply, lastUserText, startOpenAIResponsesServer, textReply, type ProviderTestServer } from '../../testing/provider-servers';
import { waitFor } from '../../testing/wait-for';

/** Sessions on a Codex connection, run by the real `codex app-server` against a scripted Responses server. */

let server: ProviderTestServer;
let t: TestHost;

beforeAll(async () => {
  server = await startOpenAIResponsesServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  await t.close();
});

async function codexSession(permissionMode: 'explore' | 'ask' | 'full' = 'ask') {
  t = await startTestHost({ codex: { retries: 0, bounds: { interruptMs: 1000 } } });
  const { connection } = await t.call('connection.create', { name: 'Codex', providerType: 'codex', baseUrl: server.baseUrl });
  const { session } = await t.call('session.create', { connectionId: connection.connectionId, permissionMode });
  return { connectionId: connection.connectionId, sessionId: session.sessionId };
}

const items = async (sessionId: string) => (await t.call('transcript.page', { sessionId, limit: 200 })).items;

describe('Codex sessions', () => {
  it('tests the connection: the version of the codex it found', async () => {
    const { connectionId } = await codexSession();
    const result = await t.call('connection.test', { connectionId });
    expect(result.verdict).toBe('ok');
    expect(result.message).toMatch(/Codex \d+\.\d+\.\d+/);
  });

  it('streams a text turn through Codex, durable, with usage in usage.summary', async () => {
    const { sessionId } = await codexSession();
    const base = server.modelCalls().length;
    server.enqueue(textReply('Hello from the fake model.', 4, { inputTokens: 120, outputTokens: 30 }));
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Say hello' });
    const turn = await t.waitForTurn(sessionId, 't1', ['completed', 'failed']);
    expect(turn.status).toBe('completed');
    expect(lastUserText((await server.waitForModelCall(base)).body)).toContain('Say hello');
    expect((await items(sessionId)).map((item) => [item.kind, item.text])).toEqual([
      ['user_message', 'Say hello'],
      ['assistant_message', 'Hello from the fake model.'],
    ]);
    // Streamed: the message appeared while it was still being written.
    expect(t.events.some((event) => event.kind === 'transcript.appended' && event.item.kind === 'assistant_message' && event.item.state === 'streaming')).toBe(true);
    const summary = await t.call('usage.summary', { by: 'session' });
    expect(summary.totals).toMatchObject({ inputTokens: 120, outputTokens: 30 });
  });

  it('Stop during a slow stream: cancelled, nothing appended after; the next turn works on the same thread', async () => {
    const { sessionId } = await codexSession();
    const base = server.modelCalls().length;
    server.enqueue(hangReply(['Working on it']));
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Take your time' });
    await waitFor(async () => (await items(sessionId)).some((item) => item.text.includes('Working on it')), { message: 'first text', timeoutMs: 15_000 });
    const started = Date.now();
    await t.call('turn.stop', { sessionId, turnId: 't1' });
    expect((await t.call('turn.query', { sessionId, turnId: 't1' })).turn.status).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(1000);
    const request = await server.waitForModelCall(base);
    expect(await request.outcome).toBe('client_closed');
    const after = (await items(sessionId)).length;
    server.enqueue(textReply('Second answer.'));
    await t.call('turn.start', { sessionId, turnId: 't2', text: 'Again' });
    expect((await t.waitForTurn(sessionId, 't2', ['completed', 'failed'])).status).toBe('completed');
    const all = await items(sessionId);
    expect(all.slice(after).map((item) => item.text)).toEqual(['Again', 'Second answer.']);
    const second = (await server.waitForModelCall(base + 1)).body;
    expect(JSON.stringify(second)).toContain('Take your time');
  });
});
