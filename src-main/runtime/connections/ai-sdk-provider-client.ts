import type { ProviderClient } from './provider-client';
import { costOf, listModels, ollamaContextLength, streamModelStep, testConnection } from './providers';

/** The provider layer over the AI SDK and real providers: what the host uses unless a test injects another. */
export const aiSdkProviderClient: ProviderClient = {
  listModels: (endpoint, signal) => listModels(endpoint, signal),
  testConnection: (endpoint, signal) => testConnection(endpoint, signal),
  streamModelStep: (request) => streamModelStep(request),
  costOf: (modelId, usage, providerType) => costOf(modelId, usage, providerType),
  contextLengthOf: (endpoint, modelId, signal) => ollamaContextLength(endpoint, modelId, signal),
};
