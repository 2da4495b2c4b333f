import { apiRoot } from './provider-endpoints';
import type { ProviderConnection } from './provider-types';

/**
 * The context window an Ollama server reports for one of its models: `POST {root}/api/show {model}`,
 * read from `model_info["<architecture>.context_length"]`. Null when the server answers without one (an old
 * Ollama, an unknown model, a model without the key); throws when it cannot be reached or the signal aborts.
 */
export async function ollamaContextLength(
  connection: ProviderConnection,
  modelId: string,
  signal: AbortSignal,
  fetchImpl: typeof fetch = fetch,
): Promise<number | null> {
  if (connection.providerType !== 'ollama') return null;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (connection.apiKey !== null && connection.apiKey !== '') headers.authorization = `Bearer ${connection.apiKey}`;
  // Unreachable or too slow: this throws, and the caller may ask again later.
  const response = await fetchImpl(`${apiRoot(connection)}/api/show`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ model: modelId }),
    signal,
  });
  if (!response.ok) return null;
  try {
    return contextLengthIn(JSON.parse(await response.text()) as unknown);
  } catch {
    return null;
  }
}

/** `model_info[general.architecture + ".context_length"]`, else the one `*.context_length` key there is. */
export function contextLengthIn(body: unknown): number | null {
  const info = isRecord(body) && isRecord(body.model_info) ? body.model_info : null;
  if (info === null) return null;
  const architecture = info['general.architecture'];
  const named = typeof architecture === 'string' ? info[`${architecture}.context_length`] : undefined;
  const candidates =
    named !== undefined
      ? [named]
      : Object.entries(info)
          .filter(([key]) => key.endsWith('.context_length'))
          .map(([, value]) => value);
  const value = candidates.length === 1 ? candidates[0] : undefined;
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
