import type { ModelAgentDeps } from '../agent-backends/builtin/model-agent-backend';
import type { ConnectionService } from '../connections/connection-service';
import type { ProviderClient } from '../connections/provider-client';

/** How the runtime's model callers (the built-in agent, compaction, titles) reach a connection's model. */
export type ModelAccess = Pick<ModelAgentDeps, 'resolveTarget' | 'streamStep' | 'costOf'>;

export function modelAccess(connections: ConnectionService, providers: ProviderClient): ModelAccess {
  return {
    resolveTarget: (connectionId, model) => connections.targets.resolveTarget(connectionId, model),
    streamStep: (request) => providers.streamModelStep(request),
    costOf: (target, usage) => providers.costOf(target.modelId, usage, target.providerType),
  };
}
