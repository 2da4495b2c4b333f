import { AcpLogins } from '../agent-backends/acp/acp-logins';
import type { ConnectionService } from '../connections/connection-service';
import type { EventBus } from '../ports/event-bus';
import type { RuntimeDeps } from './runtime-contract';

/** Sign-ins to ACP agents: what each connection's agent declares, and each sign-in's state and output, published. */
export function wireAcpLogins(runtime: RuntimeDeps, bus: EventBus, connections: ConnectionService): AcpLogins {
  return new AcpLogins({
    resolve: (connectionId) => connections.targets.acpAgent(connectionId),
    cairnVersion: runtime.cairnVersion,
    now: () => runtime.clock.now(),
    newId: () => crypto.randomUUID(),
    logger: runtime.logger,
    onMethods: (methods) => bus.publish({ kind: 'acp.login.methods.changed', methods }),
    onLogin: (login) => bus.publish({ kind: 'acp.login.changed', login }),
    onOutput: (loginId, text) => bus.publish({ kind: 'acp.login.output', loginId, text }),
    ...(runtime.acp?.bounds === undefined ? {} : { bounds: runtime.acp.bounds }),
  });
}
