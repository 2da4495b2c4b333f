import type { AcpAgentIdentity } from '../../../src-shared/acp-model';
import type { Stores } from '../../storage/stores';
import { createAcpBackend, type AcpBackend } from '../agent-backends/acp/acp-backend';
import { acpAgentWall } from '../agent-backends/acp/acp-agent-wall';
import { AcpInstaller } from '../agent-backends/acp/acp-installer';
import type { ConnectionService } from '../connections/connection-service';
import type { EventBus } from '../ports/event-bus';
import type { McpServerService } from '../mcp/mcp-server-service';
import type { ContextRuntime } from '../context/context-runtime';
import type { ShellService } from '../shell/shell-service';
import type { SandboxService } from '../sandbox/sandbox-service';
import type { RuntimeDeps } from './runtime-contract';

/** The backend of ACP agent sessions (Claude, Gemini CLI, OpenCode, a custom command), over Cairn's stores. */
export function wireAcp(
  runtime: RuntimeDeps,
  bus: EventBus,
  connections: ConnectionService,
  mcp: McpServerService,
  shell: ShellService,
  context: ContextRuntime,
  sandbox: SandboxService,
): AcpBackend {
  const stores: Stores = runtime.stores;
  return createAcpBackend({
    resolve: (connectionId) => connections.targets.acpAgent(connectionId),
    sessionOf: (sessionId) => stores.sessions.get(sessionId),
    mcpServersOf: (sessionId) => mcp.launchesFor(sessionId),
    resumePoints: stores.acp,
    allowedForSession: (sessionId, toolName) => stores.interactions.allowedForSession(sessionId, toolName),
    dataDir: runtime.dataDir,
    cairnVersion: runtime.cairnVersion,
    newInstanceId: () => crypto.randomUUID(),
    now: () => runtime.clock.now(),
    logger: runtime.logger,
    onAgent: (sessionId, agent) => bus.publish({ kind: 'acp.agent.changed', sessionId, agent }),
    onContextMeter: (sessionId, meter) => context.noteMeter(sessionId, meter),
    shell: {
      runner: shell.runner,
      onOutput: (sessionId, chunk) => shell.publishOutput(sessionId, chunk),
      confine: (sessionId, cwd, call) =>
        sandbox.confine(runtime.stores.sessions.get(sessionId)?.permissionMode ?? 'ask', cwd, { sessionId, ...call }),
    },
    agentWalled: (mode) => mode === 'auto',
    confineAgent: (sessionId, connectionId, workspace, command) =>
      sandbox.confineAgent(
        stores.sessions.get(sessionId)?.permissionMode ?? 'ask',
        workspace,
        { sessionId },
        acpAgentWall(
          command,
          stores.connections.get(connectionId)?.baseUrl ?? null,
          stores.connections.get(connectionId)?.acpAgent?.writableFolders ?? [],
        ),
      ),
    ...(runtime.acp?.bounds === undefined ? {} : { bounds: runtime.acp.bounds }),
  });
}

/** The installer of preset ACP agents, publishing each step as `acp.install.changed`. */
export function wireAcpInstaller(runtime: RuntimeDeps, bus: EventBus): AcpInstaller {
  return new AcpInstaller({
    dataDir: runtime.dataDir,
    now: () => runtime.clock.now(),
    logger: runtime.logger,
    publish: (install) => bus.publish({ kind: 'acp.install.changed', install }),
    ...(runtime.acp?.installSource === undefined ? {} : { installSource: runtime.acp.installSource }),
    ...(runtime.acp?.installKillGraceMs === undefined ? {} : { killGraceMs: runtime.acp.installKillGraceMs }),
  });
}

/** An ACP turn stopped while its agent waited for a permission: the request is cancelled and the turn ended. */
export function followAcpSessions(bus: EventBus, acp: AcpBackend): void {
  bus.subscribe((event) => {
    if (event.kind === 'turn.changed' && event.turn.status === 'cancelled')
      void acp.releaseWaiting(event.turn.sessionId);
  });
}

/** The agent of an ACP session as it named itself when it last started for the session; null before. */
export function acpAgentOf(stores: Stores, sessionId: string): AcpAgentIdentity | null {
  const resumePoint = stores.acp.resumePoint(sessionId);
  if (resumePoint === null || resumePoint.agentName === null) return null;
  return { name: resumePoint.agentName, title: resumePoint.agentTitle, version: resumePoint.agentVersion };
}
