import { describe, expect, it } from 'vitest';
import { apiRoot, defaultBaseUrl, modelListUrl, sdkBaseUrl } from './provider-endpoints';
import type { ProviderType } from './provider-types';

const connection = (providerType: ProviderType, baseUrl: string | null) => ({ providerType, baseUrl, apiKey: null });

describe('provider endpoints', () => {
  it('knows each provider’s default root; an OpenAI-compatible server has none', () => {
    expect(defaultBaseUrl('openai')).toBe('https://api.openai.com/v1');
    expect(defaultBaseUrl('anthropic')).toBe('https://api.anthropic.com');
    expect(defaultBaseUrl('ollama')).toBe('http://127.0.0.1:11434');
    expect(defaultBaseUrl('openai_compatible')).toBeNull();
  });

  it('gives the SDK the base it wants and lists models where each provider lists them', () => {
    expect(sdkBaseUrl(connection('anthropic', null))).toBe('https://api.anthropic.com/v1');
    expect(sdkBaseUrl(connection('ollama', null))).toBe('http://127.0.0.1:11434/api');
    expect(sdkBaseUrl(connection('openai', null))).toBe('https://api.openai.com/v1');
    expect(modelListUrl(connection('openai_compatible', 'http://localhost:1234/v1'))).toBe(
      'http://localhost:1234/v1/models',
    );
    expect(modelListUrl(connection('anthropic', null))).toBe('https://api.anthropic.com/v1/models?limit=1000');
    expect(modelListUrl(connection('ollama', 'http://gpu-box:11434'))).toBe('http://gpu-box:11434/api/tags');
  });

  it('tolerates trailing slashes and the path suffix a person may paste', () => {
    expect(apiRoot(connection('anthropic', 'https://api.anthropic.com/v1/'))).toBe('https://api.anthropic.com');
    expect(apiRoot(connection('ollama', 'http://localhost:11434/api'))).toBe('http://localhost:11434');
    expect(apiRoot(connection('openai_compatible', ' http://localhost:8080/v1// '))).toBe('http://localhost:8080/v1');
    expect(apiRoot(connection('openai', ''))).toBe('https://api.openai.com/v1');
  });

  it('refuses a missing or non-http base URL with a bad_request ProviderError', () => {
    expect(() => apiRoot(connection('openai_compatible', null))).toThrow(
      expect.objectContaining({ errorClass: 'bad_request' }),
    );
    expect(() => apiRoot(connection('openai_compatible', 'localhost:1234'))).toThrow(
      expect.objectContaining({ errorClass: 'bad_request' }),
    );
    expect(() => apiRoot(connection('openai', 'not a url'))).toThrow(
      expect.objectContaining({ errorClass: 'bad_request' }),
    );
    expect(() => apiRoot(connection('openai', 'file:///etc/passwd'))).toThrow(/http/);
  });
});
