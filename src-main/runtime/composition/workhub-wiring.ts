import { agentChoosesModel, OFFLINE_DEMO_CONNECTION_ID } from '../../../src-shared/connection-model';
import type { ConnectionService } from '../connections/connection-service';
import type { EventBus } from '../ports/event-bus';
import type { SessionService } from '../sessions/session-service';
import type { TurnService } from '../turns/turn-service';
import { CandidateFinder } from '../workhub/candidate-finder';
import { createModelRouter } from '../workhub/model-router';
import { scriptedRouter } from '../workhub/scripted-router';
import { WorkHubService } from '../workhub/workhub-service';
import type { RuntimeDeps } from './runtime-contract';

export interface WorkHubWiringDeps {
  readonly bus: EventBus;
  readonly connections: ConnectionService;
  readonly turns: TurnService;
  readonly sessions: SessionService;
}

/** The WorkHub, routing requests with the default connection's model, or by script while that is the Offline demo or an agent that has no model Cairn calls. */
export function wireWorkHub(runtime: RuntimeDeps, deps: WorkHubWiringDeps): WorkHubService {
  const { connections } = deps;
  // An agent connection (ACP, Codex) runs its own turns: Cairn has no model of its own to route with.
  const scriptedRouting = () => {
    const { connectionId } = connections.defaultTarget();
    const providerType = connections.get(connectionId)?.providerType;
    return connectionId === OFFLINE_DEMO_CONNECTION_ID || providerType === undefined || agentChoosesModel(providerType);
  };
  const modelRouter = createModelRouter({
    target: () => {
      const target = connections.defaultTarget();
      return connections.targets.resolveTarget(target.connectionId, target.modelId);
    },
    streamStep: (request) => runtime.providers.streamModelStep(request),
  });
  return new WorkHubService({
    ...runtime,
    bus: deps.bus,
    finder: new CandidateFinder(runtime.stores, runtime.clock),
    router: () => (scriptedRouting() ? scriptedRouter : modelRouter),
    turns: deps.turns,
    sessions: deps.sessions,
  });
}
