import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../testing/host-fixture';
import { startOllamaServer, textReply, type ProviderTestServer } from '../testing/provider-servers';

let t: TestHost;
let server: ProviderTestServer;

beforeEach(async () => {
  server = await startOllamaServer({
    models: [{ id: 'my-tune:7b', label: 'my-tune:7b', contextLength: 65_536 }, 'plain:1b'],
  });
  t = await startTestHost({ retryBaseMs: 5 });
});
afterEach(async () => {
  await t.close();
  await server.close();
});

const shows = () => server.requests.filter((request) => request.path === '/api/show');

async function runTurn(sessionId: string, turnId: string) {
  server.enqueue(textReply('Fine.'));
  await t.call('turn.start', { sessionId, turnId, text: 'Hello' });
  const done = await t.waitForTurn(sessionId, turnId, ['completed', 'failed']);
  expect(done.status, done.latestRun.errorMessage ?? '').toBe('completed');
  return (await t.call('context.meter', { sessionId })).meter;
}

describe('an Ollama model’s reported context window', () => {
  it('is read when the models are fetched, listed with the model, and used by the meter', async () => {
    const { connection } = await t.call('connection.create', {
      name: 'Local',
      providerType: 'ollama',
      baseUrl: server.baseUrl,
    });
    const fetched = await t.call('connection.models.fetch', { connectionId: connection.connectionId });
    expect(fetched.connection.models).toEqual([
      {
        modelId: 'my-tune:7b',
        label: 'my-tune:7b',
        contextLength: 65_536,
        price: { inputPerMillion: 0, outputPerMillion: 0 },
      },
      { modelId: 'plain:1b', label: 'plain:1b', price: { inputPerMillion: 0, outputPerMillion: 0 } },
    ]);
    expect(shows().map((request) => request.body)).toEqual([{ model: 'my-tune:7b' }, { model: 'plain:1b' }]);
    const listed = (await t.call('connection.list', {})).connections.find(
      (candidate) => candidate.connectionId === connection.connectionId,
    );
    expect(listed?.models[0]?.contextLength).toBe(65_536);

    const { session } = await t.call('session.create', { connectionId: connection.connectionId, model: 'my-tune:7b' });
    expect(await runTurn(session.sessionId, 't1')).toMatchObject({
      contextWindow: 65_536,
      windowSource: 'known',
      modelId: 'my-tune:7b',
    });
    // The model without a reported window gets the default, shown as such.
    await t.call('session.configure', {
      sessionId: session.sessionId,
      connectionId: connection.connectionId,
      model: 'plain:1b',
    });
    expect(await runTurn(session.sessionId, 't2')).toMatchObject({ contextWindow: 32_000, windowSource: 'default' });
    // The person's window wins over the server's.
    await t.call('context.windows.set', {
      connectionId: connection.connectionId,
      modelId: 'my-tune:7b',
      window: { contextWindow: 20_000, outputReserve: 2_000 },
    });
    await t.call('session.configure', {
      sessionId: session.sessionId,
      connectionId: connection.connectionId,
      model: 'my-tune:7b',
    });
    expect(await runTurn(session.sessionId, 't3')).toMatchObject({ contextWindow: 20_000, windowSource: 'override' });
  });

  it('is asked for before a run when the models were never fetched, once per connection revision', async () => {
    const { connection } = await t.call('connection.create', {
      name: 'Local',
      providerType: 'ollama',
      baseUrl: server.baseUrl,
      enabledModelIds: ['my-tune:7b'],
    });
    const { session } = await t.call('session.create', { connectionId: connection.connectionId, model: 'my-tune:7b' });
    expect(await runTurn(session.sessionId, 't1')).toMatchObject({ contextWindow: 65_536, windowSource: 'known' });
    await runTurn(session.sessionId, 't2');
    expect(shows()).toHaveLength(1);
    // A changed connection (here its name; an address or key alike) is asked again.
    await t.call('connection.update', {
      connectionId: connection.connectionId,
      expectedRevision: connection.revision,
      name: 'Local box',
    });
    await runTurn(session.sessionId, 't3');
    expect(shows()).toHaveLength(2);
  });
});
