import { listModels, type ListedModel } from './list-models';
import { ProviderError, type ProviderErrorClass } from './provider-error';
import type { ProviderConnection } from './provider-types';

export type ConnectionVerdict = 'ok' | 'bad_key' | 'unreachable' | 'model_unknown' | 'server_error';

export interface ConnectionCheck {
  readonly verdict: ConnectionVerdict;
  /** For the person setting up the connection. */
  readonly message: string;
  readonly latencyMs: number;
}

const VERDICTS: Readonly<Record<Exclude<ProviderErrorClass, 'aborted'>, ConnectionVerdict>> = {
  bad_key: 'bad_key',
  unreachable: 'unreachable',
  // The model list has no model in its path: a 404 or a refused request means the address is wrong.
  model_not_found: 'unreachable',
  bad_request: 'unreachable',
  rate_limited: 'server_error',
  usage_limit: 'server_error',
  context_too_long: 'server_error',
  server_error: 'server_error',
  timed_out: 'unreachable',
};

/**
 * Checks a connection with a cheap authenticated call, the model list: `model_unknown` when `modelId`
 * is given and not listed. Throws only when `signal` stops it (a ProviderError of class `aborted`).
 */
export async function testConnection(
  connection: ProviderConnection & { readonly modelId?: string },
  signal: AbortSignal,
  fetchImpl?: typeof fetch,
): Promise<ConnectionCheck> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let models: ListedModel[];
  try {
    models = await listModels(connection, signal, fetchImpl);
  } catch (error) {
    const failure = error instanceof ProviderError ? error : new ProviderError('server_error', String(error));
    if (failure.errorClass === 'aborted') throw failure;
    const message =
      failure.status === 404
        ? 'The server has no model list at this address (404): check the base URL.'
        : failure.message;
    return { verdict: VERDICTS[failure.errorClass], message, latencyMs: elapsed() };
  }
  const { modelId } = connection;
  if (
    modelId !== undefined &&
    modelId !== '' &&
    !models.some((model) => sameModel(connection, model.modelId, modelId))
  ) {
    return {
      verdict: 'model_unknown',
      message: `Connected, but the provider does not offer the model "${modelId}".`,
      latencyMs: elapsed(),
    };
  }
  const count = models.length === 1 ? '1 model' : `${models.length} models`;
  return { verdict: 'ok', message: `Connected: ${count} available.`, latencyMs: elapsed() };
}

/** Ollama names a model without a tag as its `:latest`. */
function sameModel(connection: ProviderConnection, listed: string, wanted: string): boolean {
  if (listed === wanted) return true;
  return connection.providerType === 'ollama' && !wanted.includes(':') && listed === `${wanted}:latest`;
}
