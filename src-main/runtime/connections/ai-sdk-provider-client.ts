import type { ProviderClient } from './provider-client';
import type * as AiSdkLayer from './providers/ai-sdk-layer';
import { ollamaContextLength } from './providers/model-details';
import { costOf } from './providers/model-prices';

/** The AI SDK and its provider packages cost memory the host does not need until a model is called. */
let layer: Promise<typeof AiSdkLayer> | null = null;
const loadLayer = (): Promise<typeof AiSdkLayer> => (layer ??= import('./providers/ai-sdk-layer'));

/**
 * The provider layer over the AI SDK and real providers: what the host uses unless a test injects
 * another. The SDK loads on the first call that needs it.
 */
export const aiSdkProviderClient: ProviderClient = {
  listModels: async (endpoint, signal) => (await loadLayer()).listModels(endpoint, signal),
  testConnection: async (endpoint, signal) => (await loadLayer()).testConnection(endpoint, signal),
  async *streamModelStep(request) {
    yield* (await loadLayer()).streamModelStep(request);
  },
  costOf: (modelId, usage, providerType) => costOf(modelId, usage, providerType),
  contextLengthOf: (endpoint, modelId, signal) => ollamaContextLength(endpoint, modelId, signal),
};
