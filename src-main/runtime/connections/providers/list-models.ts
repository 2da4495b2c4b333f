import { APICallError } from 'ai';
import { classifyProviderError } from './classify-provider-error';
import { modelListUrl } from './provider-endpoints';
import { ProviderError } from './provider-error';
import type { ProviderConnection } from './provider-types';

export interface ListedModel {
  readonly modelId: string;
  /** What the provider calls it (Anthropic's display name), else the id. */
  readonly label: string;
}

const ANTHROPIC_VERSION = '2023-06-01';
const MAX_PAGES = 10;

/**
 * The models a connection offers, in the provider's order: `GET {root}/models` (OpenAI and compatible
 * servers, Bearer key), `GET {root}/v1/models` (Anthropic: `x-api-key`, `anthropic-version`, paged),
 * `GET {root}/api/tags` (Ollama). Failures throw a ProviderError.
 */
export async function listModels(
  connection: ProviderConnection,
  signal: AbortSignal,
  fetchImpl: typeof fetch = fetch,
): Promise<ListedModel[]> {
  const secrets = [connection.apiKey];
  try {
    const models: ListedModel[] = [];
    let url = modelListUrl(connection);
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const body = await getJson(url, headersFor(connection), signal, fetchImpl);
      const parsed = parseModelList(connection, body);
      if (parsed === null)
        throw new ProviderError('server_error', `The server at ${url} did not answer with a model list.`);
      models.push(...parsed.models);
      if (parsed.nextAfterId === null) break;
      url = `${modelListUrl(connection)}&after_id=${encodeURIComponent(parsed.nextAfterId)}`;
    }
    return models;
  } catch (error) {
    if (signal.aborted) throw new ProviderError('aborted', 'Listing the models was stopped.');
    throw classifyProviderError(error, { secrets });
  }
}

function headersFor(connection: ProviderConnection): Record<string, string> {
  const key = connection.apiKey ?? '';
  switch (connection.providerType) {
    case 'anthropic':
      return { 'anthropic-version': ANTHROPIC_VERSION, ...(key === '' ? {} : { 'x-api-key': key }) };
    case 'openai':
    case 'openai_compatible':
    case 'ollama':
      return key === '' ? {} : { authorization: `Bearer ${key}` };
  }
}

async function getJson(
  url: string,
  headers: Record<string, string>,
  signal: AbortSignal,
  fetchImpl: typeof fetch,
): Promise<unknown> {
  const response = await fetchImpl(url, { method: 'GET', headers: { accept: 'application/json', ...headers }, signal });
  const text = await response.text();
  if (!response.ok) {
    throw new APICallError({
      message: response.statusText || `HTTP ${response.status}`,
      url,
      requestBodyValues: null,
      statusCode: response.status,
      responseHeaders: Object.fromEntries(response.headers.entries()),
      responseBody: text,
    });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ProviderError('server_error', `The server at ${url} did not answer with JSON.`);
  }
}

function parseModelList(
  connection: ProviderConnection,
  body: unknown,
): { models: ListedModel[]; nextAfterId: string | null } | null {
  const record = asRecord(body);
  switch (connection.providerType) {
    case 'anthropic': {
      if (!Array.isArray(record.data)) return null;
      const models = record.data
        .map(asRecord)
        .flatMap((model) =>
          typeof model.id === 'string' ? [{ modelId: model.id, label: stringOr(model.display_name, model.id) }] : [],
        );
      const nextAfterId = record.has_more === true && typeof record.last_id === 'string' ? record.last_id : null;
      return { models, nextAfterId };
    }
    case 'ollama': {
      if (!Array.isArray(record.models)) return null;
      const models = record.models.map(asRecord).flatMap((model) => {
        const id = stringOr(model.model, stringOr(model.name, ''));
        return id === '' ? [] : [{ modelId: id, label: stringOr(model.name, id) }];
      });
      return { models, nextAfterId: null };
    }
    case 'openai':
    case 'openai_compatible': {
      if (!Array.isArray(record.data)) return null;
      const models = record.data
        .map(asRecord)
        .flatMap((model) => (typeof model.id === 'string' ? [{ modelId: model.id, label: model.id }] : []));
      return { models, nextAfterId: null };
    }
  }
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === 'string' && value !== '' ? value : fallback;
}
