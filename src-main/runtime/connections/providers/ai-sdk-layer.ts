/** The parts of the provider layer that load the AI SDK: imported on first use by `ai-sdk-provider-client.ts`. */
export { listModels } from './list-models';
export { streamModelStep } from './stream-model-step';
export { testConnection } from './test-connection';
