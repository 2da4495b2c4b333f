import { CheckpointService } from '../checkpoints/checkpoint-service';
import type { ConnectionService } from '../connections/connection-service';
import type { EventBus } from '../ports/event-bus';
import type { RuntimeDeps } from './runtime-contract';

/**
 * File checkpoints: the writing workspace tools are wrapped (see tool-wiring.ts) and turn ends arrive
 * on the bus. A native agent's (Codex, ACP) writes are found by comparing the workspace before and
 * after its turn.
 */
export function wireCheckpoints(
  runtime: RuntimeDeps,
  bus: EventBus,
  connections: ConnectionService,
): CheckpointService {
  const checkpoints = new CheckpointService({
    ...runtime,
    bus,
    isNative: (sessionId) => {
      const connectionId = runtime.stores.sessions.get(sessionId)?.connectionId;
      return (
        connectionId !== undefined &&
        (connections.targets.isCodex(connectionId) || connections.targets.isAcp(connectionId))
      );
    },
    ...runtime.checkpoints,
  });
  bus.subscribe((event) => checkpoints.onEvent(event));
  return checkpoints;
}
