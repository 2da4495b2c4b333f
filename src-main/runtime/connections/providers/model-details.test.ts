import { afterEach, describe, expect, it } from 'vitest';
import { startOllamaServer, type ProviderTestServer } from '../../../testing/provider-servers';
import { contextLengthIn, ollamaContextLength } from './model-details';

const servers: ProviderTestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const signal = () => new AbortController().signal;

describe('Ollama’s reported context length', () => {
  it('asks POST /api/show for the model and reads model_info["<arch>.context_length"]', async () => {
    const server = await startOllamaServer({
      models: [{ id: 'my-tune:7b', label: 'my-tune:7b', contextLength: 65_536 }, 'plain:1b'],
    });
    servers.push(server);
    const ollama = { providerType: 'ollama' as const, baseUrl: server.baseUrl, apiKey: null };
    expect(await ollamaContextLength(ollama, 'my-tune:7b', signal())).toBe(65_536);
    expect(server.requests.at(-1)).toMatchObject({ method: 'POST', path: '/api/show', body: { model: 'my-tune:7b' } });
    // A model without the key, and one the server does not have: it answered, without a window.
    expect(await ollamaContextLength(ollama, 'plain:1b', signal())).toBeNull();
    expect(await ollamaContextLength(ollama, 'absent:3b', signal())).toBeNull();
    // Only Ollama is asked.
    expect(
      await ollamaContextLength({ ...ollama, providerType: 'openai_compatible' }, 'my-tune:7b', signal()),
    ).toBeNull();
    expect(server.requests).toHaveLength(3);
  });

  it('throws when the server cannot be reached, so the question can be asked again', async () => {
    const server = await startOllamaServer();
    await server.close();
    await expect(
      ollamaContextLength(
        { providerType: 'ollama', baseUrl: server.baseUrl, apiKey: null },
        'llama3.2:latest',
        signal(),
      ),
    ).rejects.toThrow();
  });

  it('reads the architecture’s key, or the only context_length there is, and nothing else', () => {
    expect(
      contextLengthIn({
        model_info: { 'general.architecture': 'qwen3', 'qwen3.context_length': 40_960, 'llama.context_length': 8 },
      }),
    ).toBe(40_960);
    expect(contextLengthIn({ model_info: { 'gemma3.context_length': 131_072 } })).toBe(131_072);
    expect(contextLengthIn({ model_info: { 'a.context_length': 1, 'b.context_length': 2 } })).toBeNull();
    expect(
      contextLengthIn({ model_info: { 'general.architecture': 'llama', 'llama.context_length': 'big' } }),
    ).toBeNull();
    expect(contextLengthIn({ details: {} })).toBeNull();
    expect(contextLengthIn(null)).toBeNull();
  });
});
