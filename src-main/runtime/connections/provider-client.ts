import type { ConnectionTestResult, ModelInfo, ModelProviderType } from '../../../src-shared/connection-model';
import type { ModelStepEvent, ModelStepRequest, ModelUsage } from './providers';

/** Where a connection points: what the provider layer needs to reach it. */
export interface ProviderEndpoint {
  readonly providerType: ModelProviderType;
  readonly baseUrl: string | null;
  readonly apiKey: string | null;
}

/**
 * The provider layer as the runtime uses it (runtime/providers implements it over the AI SDK),
 * injected so tests can reach local servers that speak each provider's real wire format.
 */
export interface ProviderClient {
  listModels(endpoint: ProviderEndpoint, signal: AbortSignal): Promise<ModelInfo[]>;
  testConnection(
    endpoint: ProviderEndpoint & { readonly modelId?: string },
    signal: AbortSignal,
  ): Promise<ConnectionTestResult>;
  streamModelStep(request: ModelStepRequest): AsyncIterable<ModelStepEvent>;
  costOf(modelId: string, usage: ModelUsage, providerType: ModelProviderType): { usd: number } | null;
  /** The context window a server reports for a model (Ollama's `/api/show`); null when it reports none; throws when unreachable. */
  contextLengthOf?(endpoint: ProviderEndpoint, modelId: string, signal: AbortSignal): Promise<number | null>;
}
