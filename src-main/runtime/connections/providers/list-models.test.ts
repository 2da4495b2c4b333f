import { afterEach, describe, expect, it } from 'vitest';
import {
  startAnthropicServer,
  startOllamaServer,
  startOpenAIChatServer,
  TEST_API_KEY,
  type ProviderTestServer,
} from '../../../testing/provider-servers';
import { listModels } from './list-models';
import type { ProviderType } from './provider-types';
import { testConnection } from './test-connection';

const servers: ProviderTestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function started(server: Promise<ProviderTestServer>): Promise<ProviderTestServer> {
  const ready = await server;
  servers.push(ready);
  return ready;
}

const signal = () => new AbortController().signal;

describe('listModels', () => {
  it('lists OpenAI models with the Bearer key', async () => {
    const server = await started(startOpenAIChatServer({ models: ['gpt-4o', 'gpt-4.1-mini'] }));
    const models = await listModels(
      { providerType: 'openai', baseUrl: server.baseUrl, apiKey: TEST_API_KEY },
      signal(),
    );
    expect(models).toEqual([
      { modelId: 'gpt-4o', label: 'gpt-4o' },
      { modelId: 'gpt-4.1-mini', label: 'gpt-4.1-mini' },
    ]);
    expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/v1/models' });
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${TEST_API_KEY}`);
  });

  it('lists Anthropic models with their display names, sending x-api-key and anthropic-version', async () => {
    const server = await started(
      startAnthropicServer({ models: [{ id: 'claude-haiku-4-5-20251001', label: 'Claude Haiku 4.5' }] }),
    );
    const models = await listModels(
      { providerType: 'anthropic', baseUrl: server.baseUrl, apiKey: TEST_API_KEY },
      signal(),
    );
    expect(models).toEqual([{ modelId: 'claude-haiku-4-5-20251001', label: 'Claude Haiku 4.5' }]);
    expect(server.requests[0]?.path).toMatch(/^\/v1\/models/);
    expect(server.requests[0]?.headers['x-api-key']).toBe(TEST_API_KEY);
    expect(server.requests[0]?.headers['anthropic-version']).toBe('2023-06-01');
  });

  it('lists Ollama models from /api/tags, with no key', async () => {
    const server = await started(startOllamaServer({ models: ['llama3.2:latest', 'qwen3:8b'] }));
    const models = await listModels({ providerType: 'ollama', baseUrl: server.baseUrl, apiKey: null }, signal());
    expect(models.map((model) => model.modelId)).toEqual(['llama3.2:latest', 'qwen3:8b']);
    expect(server.requests[0]?.path).toBe('/api/tags');
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('throws a bad_key ProviderError that does not repeat the key', async () => {
    const server = await started(startOpenAIChatServer());
    const wrongKey = 'sk-wrong-0123456789abcdef';
    await expect(
      listModels({ providerType: 'openai_compatible', baseUrl: server.baseUrl, apiKey: wrongKey }, signal()),
    ).rejects.toSatisfy(
      (error: { errorClass?: string; message?: string }) =>
        error.errorClass === 'bad_key' && !(error.message ?? '').includes(wrongKey),
    );
  });

  it('throws aborted when stopped', async () => {
    const server = await started(startOpenAIChatServer());
    const controller = new AbortController();
    controller.abort();
    await expect(
      listModels({ providerType: 'openai', baseUrl: server.baseUrl, apiKey: TEST_API_KEY }, controller.signal),
    ).rejects.toMatchObject({ errorClass: 'aborted' });
  });
});

describe('testConnection', () => {
  const cases: {
    providerType: ProviderType;
    start: () => Promise<ProviderTestServer>;
    modelId: string;
    apiKey: string | null;
  }[] = [
    {
      providerType: 'openai',
      start: () => startOpenAIChatServer({ models: ['gpt-4o'] }),
      modelId: 'gpt-4o',
      apiKey: TEST_API_KEY,
    },
    {
      providerType: 'openai_compatible',
      start: () => startOpenAIChatServer({ models: ['local-model'] }),
      modelId: 'local-model',
      apiKey: TEST_API_KEY,
    },
    {
      providerType: 'anthropic',
      start: () => startAnthropicServer({ models: ['claude-sonnet-4-5'] }),
      modelId: 'claude-sonnet-4-5',
      apiKey: TEST_API_KEY,
    },
    {
      providerType: 'ollama',
      start: () => startOllamaServer({ models: ['llama3.2:latest'] }),
      modelId: 'llama3.2:latest',
      apiKey: null,
    },
  ];

  describe.each(cases)('$providerType', ({ providerType, start, modelId, apiKey }) => {
    it('is ok when the key works and the model is listed', async () => {
      const server = await started(start());
      const result = await testConnection({ providerType, baseUrl: server.baseUrl, apiKey, modelId }, signal());
      expect(result.verdict).toBe('ok');
      expect(result.message).toMatch(/1 model/);
      expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    });

    it('is model_unknown when the model is not listed', async () => {
      const server = await started(start());
      const result = await testConnection(
        { providerType, baseUrl: server.baseUrl, apiKey, modelId: 'no-such-model' },
        signal(),
      );
      expect(result.verdict).toBe('model_unknown');
      expect(result.message).toContain('no-such-model');
    });

    it('is unreachable when nothing listens', async () => {
      const server = await start();
      await server.close();
      const result = await testConnection({ providerType, baseUrl: server.baseUrl, apiKey }, signal());
      expect(result.verdict).toBe('unreachable');
    });

    it('is unreachable when the base URL points at the wrong place', async () => {
      const server = await started(start());
      const result = await testConnection({ providerType, baseUrl: `${server.origin}/nothing-here`, apiKey }, signal());
      expect(result.verdict).toBe('unreachable');
      expect(result.message).toMatch(/base URL/);
    });
  });

  it.each([
    ['openai', () => startOpenAIChatServer()],
    ['anthropic', () => startAnthropicServer()],
    ['ollama', () => startOllamaServer({ apiKey: TEST_API_KEY })],
  ] as const)('%s: is bad_key when the key is refused', async (providerType, start) => {
    const server = await started(start());
    const result = await testConnection({ providerType, baseUrl: server.baseUrl, apiKey: 'wrong-key-123' }, signal());
    expect(result.verdict).toBe('bad_key');
    expect(result.message).not.toContain('wrong-key-123');
  });

  it('matches an Ollama model named without its tag to :latest', async () => {
    const server = await started(startOllamaServer({ models: ['llama3.2:latest'] }));
    expect(
      (
        await testConnection(
          { providerType: 'ollama', baseUrl: server.baseUrl, apiKey: null, modelId: 'llama3.2' },
          signal(),
        )
      ).verdict,
    ).toBe('ok');
    expect(
      (
        await testConnection(
          { providerType: 'ollama', baseUrl: server.baseUrl, apiKey: null, modelId: 'llama3.2:1b' },
          signal(),
        )
      ).verdict,
    ).toBe('model_unknown');
  });

  it('is unreachable without a base URL for an OpenAI-compatible server', async () => {
    const result = await testConnection({ providerType: 'openai_compatible', baseUrl: null, apiKey: null }, signal());
    expect(result.verdict).toBe('unreachable');
    expect(result.message).toMatch(/base URL/);
  });

  it('is server_error when the server answers with something that is not a model list', async () => {
    const fakeFetch: typeof fetch = async () =>
      new Response('<html>Welcome to nginx</html>', { status: 200, headers: { 'content-type': 'text/html' } });
    const result = await testConnection(
      { providerType: 'openai_compatible', baseUrl: 'http://127.0.0.1:9/v1', apiKey: null },
      signal(),
      fakeFetch,
    );
    expect(result.verdict).toBe('server_error');
  });
});
