import { ProviderError } from './provider-error';
import type { ProviderConnection, ProviderType } from './provider-types';

const DEFAULT_ROOTS: Readonly<Record<ProviderType, string | null>> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com',
  ollama: 'http://127.0.0.1:11434',
  openai_compatible: null,
};

/** The provider's API root when a connection names none; null for `openai_compatible`, which must name one. */
export function defaultBaseUrl(type: ProviderType): string | null {
  return DEFAULT_ROOTS[type];
}

/**
 * The connection's API root, as a person writes it: OpenAI-style roots include `/v1`
 * (`http://localhost:1234/v1`); Anthropic and Ollama roots do not (a trailing `/v1` or `/api` is
 * tolerated and removed). Throws a `bad_request` ProviderError when it is missing or not http(s).
 */
export function apiRoot(connection: ProviderConnection): string {
  const given = connection.baseUrl?.trim() ?? '';
  const root = given === '' ? DEFAULT_ROOTS[connection.providerType] : given;
  if (root === null)
    throw new ProviderError(
      'bad_request',
      'An OpenAI-compatible connection needs a base URL, such as http://localhost:1234/v1.',
    );
  let url: URL;
  try {
    url = new URL(root);
  } catch {
    throw new ProviderError('bad_request', `The base URL "${root}" is not a valid URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ProviderError('bad_request', `The base URL "${root}" must start with http:// or https://.`);
  const trimmed = `${url.origin}${url.pathname}`.replace(/\/+$/, '');
  switch (connection.providerType) {
    case 'anthropic':
      return trimmed.replace(/\/v1$/, '');
    case 'ollama':
      return trimmed.replace(/\/(api|v1)$/, '');
    case 'openai':
    case 'openai_compatible':
      return trimmed;
  }
}

/** The base URL the AI SDK's provider expects: Anthropic's ends in `/v1`, Ollama's in `/api`. */
export function sdkBaseUrl(connection: ProviderConnection): string {
  const root = apiRoot(connection);
  switch (connection.providerType) {
    case 'anthropic':
      return `${root}/v1`;
    case 'ollama':
      return `${root}/api`;
    case 'openai':
    case 'openai_compatible':
      return root;
  }
}

export function modelListUrl(connection: ProviderConnection): string {
  const root = apiRoot(connection);
  switch (connection.providerType) {
    case 'anthropic':
      return `${root}/v1/models?limit=1000`;
    case 'ollama':
      return `${root}/api/tags`;
    case 'openai':
    case 'openai_compatible':
      return `${root}/models`;
  }
}
