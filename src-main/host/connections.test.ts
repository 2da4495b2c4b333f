import { dataDirText } from '../testing/data-dir-text';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestHost, tempDataDir, type TestHost } from '../testing/host-fixture';
import { startOpenAIChatServer, TEST_API_KEY } from '../testing/provider-servers';
import { recordFingerprint } from '../testing/record-fingerprint';

const SECRET = 'sk-test-DO-NOT-LEAK-5f2c9a71e3';
let t: TestHost;
beforeEach(async () => {
  t = await startTestHost();
});
afterEach(async () => {
  await t.close();
});

/** Every byte of every file in the data directory, as text. */

describe('the connection catalog', () => {
  it('always lists the Offline demo, which cannot be changed or removed', async () => {
    const catalog = await t.call('connection.list', {});
    expect(catalog.connections).toEqual([
      expect.objectContaining({ connectionId: 'offline-demo', name: 'Offline demo', builtIn: true }),
    ]);
    expect(catalog.defaultTarget).toEqual({ connectionId: 'offline-demo', modelId: 'scripted' });
    const update = await t.invoke('connection.update', {
      connectionId: 'offline-demo',
      expectedRevision: 1,
      name: 'x',
    });
    expect(update.ok ? null : update.error.code).toBe('operation_unavailable');
    const remove = await t.invoke('connection.remove', { connectionId: 'offline-demo' });
    expect(remove.ok ? null : remove.error.code).toBe('operation_unavailable');
  });

  it('creates, updates with optimistic concurrency, and removes connections', async () => {
    const { connection } = await t.call('connection.create', {
      name: 'OpenAI',
      providerType: 'openai',
      apiKey: SECRET,
    });
    expect(connection).toMatchObject({
      name: 'OpenAI',
      providerType: 'openai',
      hasApiKey: true,
      enabled: true,
      revision: 1,
      builtIn: false,
    });
    const renamed = await t.call('connection.update', {
      connectionId: connection.connectionId,
      expectedRevision: 1,
      name: 'OpenAI (work)',
    });
    expect(renamed.connection).toMatchObject({ name: 'OpenAI (work)', revision: 2, hasApiKey: true });
    const stale = await t.invoke('connection.update', {
      connectionId: connection.connectionId,
      expectedRevision: 1,
      enabled: false,
    });
    expect(stale.ok ? null : stale.error.code).toBe('revision_conflict');
    expect((await t.call('connection.list', {})).connections[1]).toMatchObject({ enabled: true, revision: 2 });
    const cleared = await t.call('connection.update', {
      connectionId: connection.connectionId,
      expectedRevision: 2,
      apiKey: null,
    });
    expect(cleared.connection.hasApiKey).toBe(false);
    await t.call('connection.remove', { connectionId: connection.connectionId, expectedRevision: 3 });
    expect((await t.call('connection.list', {})).connections).toHaveLength(1);
    expect(t.events.filter((event) => event.kind === 'connections.changed').length).toBe(4);
  });

  it('keeps per-connection timeouts: defaults that suit real models, changed in Settings, checked at the boundary', async () => {
    const { connection } = await t.call('connection.create', {
      name: 'Slow box',
      providerType: 'openai',
      apiKey: SECRET,
    });
    expect(connection).toMatchObject({ firstTokenTimeoutSeconds: 120, idleTimeoutSeconds: 60 });
    const changed = await t.call('connection.update', {
      connectionId: connection.connectionId,
      expectedRevision: 1,
      firstTokenTimeoutSeconds: 300,
      idleTimeoutSeconds: 45,
    });
    expect(changed.connection).toMatchObject({ firstTokenTimeoutSeconds: 300, idleTimeoutSeconds: 45, revision: 2 });
    expect((await t.call('connection.list', {})).connections[1]).toMatchObject({
      firstTokenTimeoutSeconds: 300,
      idleTimeoutSeconds: 45,
    });
    for (const bad of [0, -5, 1.5, 3601]) {
      const outcome = await t.invoke('connection.update', {
        connectionId: connection.connectionId,
        expectedRevision: 2,
        idleTimeoutSeconds: bad,
      });
      expect(outcome.ok ? null : outcome.error.code).toBe('invalid_input');
    }
    const created = await t.call('connection.create', {
      name: 'Patient',
      providerType: 'ollama',
      firstTokenTimeoutSeconds: 600,
    });
    expect(created.connection).toMatchObject({ firstTokenTimeoutSeconds: 600, idleTimeoutSeconds: 60 });
  });

  it('refuses bad input clearly', async () => {
    for (const input of [
      { name: '', providerType: 'openai' },
      { name: 'x', providerType: 'gemini' },
      { name: 'x', providerType: 'openai', baseUrl: 'ftp://nope' },
      { name: 'x', providerType: 'openai', apiKey: SECRET, extra: true },
    ]) {
      const outcome = await t.host.dispatch('connection.create', input, { transport: 'direct', connectionId: 'test' });
      expect(outcome.ok ? null : outcome.error.code).toBe('invalid_input');
    }
    for (const baseUrl of [`https://user:${SECRET}@api.example.com/v1`, `https://${SECRET}@api.example.com/v1`]) {
      const before = recordFingerprint(t.dataDir);
      const keyInAddress = await t.invoke('connection.create', {
        name: 'Proxy',
        providerType: 'openai_compatible',
        baseUrl,
      });
      expect(keyInAddress).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
      expect(keyInAddress.ok ? '' : keyInAddress.error.message).toContain(
        'Leave the user name and API key out of the address',
      );
      expect(keyInAddress.ok ? '' : keyInAddress.error.message).not.toContain(SECRET);
      expect(recordFingerprint(t.dataDir)).toBe(before);
    }
    const compatible = await t.invoke('connection.create', { name: 'LM Studio', providerType: 'openai_compatible' });
    expect(compatible.ok ? null : compatible.error.message).toMatch(/needs the server address/);
  });

  it('never lets the key out: not in results, not in events, not in the database or any file in clear', async () => {
    const { connection } = await t.call('connection.create', {
      name: 'Anthropic',
      providerType: 'anthropic',
      apiKey: SECRET,
    });
    await t.call('connection.update', {
      connectionId: connection.connectionId,
      expectedRevision: 1,
      apiKey: `${SECRET}-2`,
    });
    const everything = JSON.stringify([await t.call('connection.list', {}), t.events]);
    expect(everything).not.toContain(SECRET);
    await t.host.close();
    expect(dataDirText(t.dataDir)).not.toContain(SECRET);
  });

  it('sessions stay bound to a removed connection and say so; a same-name replacement never re-binds them', async () => {
    const { connection } = await t.call('connection.create', {
      name: 'Local',
      providerType: 'ollama',
      enabledModelIds: ['llama3'],
    });
    const { session } = await t.call('session.create', { connectionId: connection.connectionId, model: 'llama3' });
    await t.call('connection.remove', { connectionId: connection.connectionId });
    const { connection: replacement } = await t.call('connection.create', {
      name: 'Local',
      providerType: 'ollama',
      enabledModelIds: ['llama3'],
    });
    expect(replacement.connectionId).not.toBe(connection.connectionId);
    expect((await t.call('session.get', { sessionId: session.sessionId })).session.connectionId).toBe(
      connection.connectionId,
    );
    await t.call('turn.start', { sessionId: session.sessionId, turnId: 't1', text: 'hello' });
    const turn = await t.waitForTurn(session.sessionId, 't1', ['failed']);
    expect(turn.latestRun).toMatchObject({
      errorCode: 'connection_unavailable',
      terminalReason: 'connection_unavailable',
    });
    expect(turn.latestRun.errorMessage).toMatch(/no longer exists/);
    const moved = await t.call('session.configure', { sessionId: session.sessionId, connectionId: 'offline-demo' });
    expect(moved.session).toMatchObject({ connectionId: 'offline-demo', model: null });
  });

  it('setDefault needs a known model and a current catalog revision; new sessions use it', async () => {
    const { connection } = await t.call('connection.create', {
      name: 'Local',
      providerType: 'ollama',
      enabledModelIds: ['llama3'],
    });
    const unknown = await t.invoke('connection.setDefault', {
      connectionId: connection.connectionId,
      modelId: 'gpt-9',
    });
    expect(unknown.ok ? null : unknown.error.code).toBe('invalid_input');
    const { catalogRevision } = await t.call('connection.list', {});
    const stale = await t.invoke('connection.setDefault', {
      connectionId: connection.connectionId,
      modelId: 'llama3',
      expectedCatalogRevision: catalogRevision - 1,
    });
    expect(stale.ok ? null : stale.error.code).toBe('revision_conflict');
    await t.call('connection.setDefault', {
      connectionId: connection.connectionId,
      modelId: 'llama3',
      expectedCatalogRevision: catalogRevision,
    });
    const { session } = await t.call('session.create', {});
    expect(session).toMatchObject({ connectionId: connection.connectionId, model: 'llama3' });
    await t.call('connection.remove', { connectionId: connection.connectionId });
    expect((await t.call('connection.list', {})).defaultTarget.connectionId).toBe('offline-demo');
  });

  it('an agent that chooses its own model (ACP, or Codex with none ticked) is made the default with no model; a model provider is not', async () => {
    const acp = await t.call('connection.create', {
      name: 'Agent',
      providerType: 'acp',
      acpAgent: { command: process.execPath, args: [], env: {} },
    });
    await t.call('connection.setDefault', { connectionId: acp.connection.connectionId, modelId: null });
    expect((await t.call('connection.list', {})).defaultTarget).toEqual({
      connectionId: acp.connection.connectionId,
      modelId: null,
    });
    expect((await t.call('session.create', {})).session).toMatchObject({
      connectionId: acp.connection.connectionId,
      model: null,
    });
    const named = await t.invoke('connection.setDefault', {
      connectionId: acp.connection.connectionId,
      modelId: 'sonnet',
    });
    expect(named.ok ? null : named.error.code).toBe('invalid_input');
    const codex = await t.call('connection.create', { name: 'Codex', providerType: 'codex', enabledModelIds: [] });
    await t.call('connection.setDefault', { connectionId: codex.connection.connectionId, modelId: null });
    const local = await t.call('connection.create', {
      name: 'Local',
      providerType: 'ollama',
      enabledModelIds: ['llama3'],
    });
    const modelless = await t.invoke('connection.setDefault', {
      connectionId: local.connection.connectionId,
      modelId: null,
    });
    expect(modelless.ok ? null : modelless.error.message).toMatch(/Pick one of Local's models/);
  });

  it('session.create refuses an unknown connection', async () => {
    const outcome = await t.invoke('session.create', { connectionId: 'ghost' });
    expect(outcome.ok ? null : outcome.error.code).toBe('invalid_input');
  });

  it('keeps the last Test on the connection — when, the verdict and what it said — across a restart, without making an editor stale', async () => {
    const server = await startOpenAIChatServer({ models: ['gpt-test'] });
    const temp = tempDataDir();
    await t.close();
    t = await startTestHost({ dataDir: temp.dir });
    try {
      const { connection } = await t.call('connection.create', {
        name: 'Local',
        providerType: 'openai_compatible',
        baseUrl: server.baseUrl,
        apiKey: TEST_API_KEY,
      });
      expect(connection.lastTest).toBeNull();
      const before = Date.now();
      const passed = await t.call('connection.test', { connectionId: connection.connectionId });
      expect(passed.verdict).toBe('ok');
      const listed = (await t.call('connection.list', {})).connections.find(
        (known) => known.connectionId === connection.connectionId,
      );
      expect(listed?.lastTest).toMatchObject({ verdict: 'ok', message: passed.message });
      expect(listed?.lastTest?.testedAt).toBeGreaterThanOrEqual(before);
      expect(listed?.revision).toBe(connection.revision);
      expect(t.events.filter((event) => event.kind === 'connections.changed')).toHaveLength(2);

      await t.call('connection.update', {
        connectionId: connection.connectionId,
        expectedRevision: connection.revision,
        apiKey: 'sk-wrong',
      });
      const refused = await t.call('connection.test', { connectionId: connection.connectionId });
      expect(refused.verdict).toBe('bad_key');
      await t.close();
      t = await startTestHost({ dataDir: t.dataDir });
      const reopened = (await t.call('connection.list', {})).connections.find(
        (known) => known.connectionId === connection.connectionId,
      );
      expect(reopened?.lastTest).toMatchObject({ verdict: 'bad_key', message: refused.message });
    } finally {
      await server.close();
      await t.close();
      t = await startTestHost();
      temp.cleanup();
    }
  });
});
