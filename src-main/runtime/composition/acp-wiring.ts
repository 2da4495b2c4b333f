import type { AcpAgentIdentity, AcpSessionOffers } from '../../../src-shared/acp-model';
import { isModeSelector, modesAllowed } from '../../../src-shared/acp-modes';
import { fail, ok, type Outcome } from '../../../src-shared/errors';
import type { Stores } from '../../storage/stores';
import { createAcpBackend, type AcpBackend } from '../agent-backends/acp/acp-backend';
import { acpAgentWall } from '../agent-backends/acp/acp-agent-wall';
import { forkPointIn } from '../agent-backends/acp/acp-session-fork';
import { AcpInstaller } from '../agent-backends/acp/acp-installer';
import { AcpRegistry } from '../connections/acp-registry';
import { ACP_REGISTRY_URL } from '../../../src-shared/acp-registry-model';
import type { AcpLogins } from '../agent-backends/acp/acp-logins';
import type { AcpSessionNews } from '../agent-backends/acp/live-acp-agent';
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
  logins: AcpLogins,
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
    onInitialized: (connectionId, info) => logins.noteInitialized(connectionId, info),
    onAgent: (sessionId, agent) => bus.publish({ kind: 'acp.agent.changed', sessionId, agent }),
    onNews: (sessionId, news) => noteAcpNews(runtime, bus, sessionId, news),
    chosenOf: (sessionId) => stores.acpOffers.offers(sessionId).chosen,
    onContextMeter: (sessionId, meter) => context.noteMeter(sessionId, meter),
    shell: {
      runner: shell.runner,
      onOutput: (sessionId, chunk) => shell.publishOutput(sessionId, chunk),
      confine: (sessionId, cwd, call) =>
        sandbox.confine(runtime.stores.sessions.get(sessionId)?.permissionMode ?? 'ask', cwd, { sessionId, ...call }),
    },
    agentWalled: (mode) => mode === 'auto',
    forkPointOf: (sessionId) => {
      const branch = stores.branches.get(sessionId);
      const source = branch === null ? null : stores.acp.resumePoint(branch.sourceSessionId);
      if (branch === null || source === null) return null;
      const before = stores.transcript.all(sessionId).filter((item) => item.position < branch.cutPosition);
      return forkPointIn(source.acpSessionId, before);
    },
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

/** What the agent said of its session: what it offers, kept and announced; its title, taken unless the person named the session. */
function noteAcpNews(runtime: RuntimeDeps, bus: EventBus, sessionId: string, news: AcpSessionNews): void {
  const { stores, clock } = runtime;
  if (news.kind === 'offered') {
    const { kind: _kind, ...offered } = news;
    const offers = stores.transaction(() =>
      stores.sessions.get(sessionId) === null ? null : stores.acpOffers.saveOffered(sessionId, offered, clock.now()),
    );
    if (offers !== null) bus.publish({ kind: 'acp.offers.changed', sessionId, offers });
    return;
  }
  const session = stores.transaction(() => {
    const current = stores.sessions.get(sessionId);
    if (current === null || current.titleSource === 'user' || current.title === news.title) return null;
    stores.sessions.setTitle(sessionId, news.title, 'auto', clock.now());
    return stores.sessions.get(sessionId);
  });
  if (session !== null) bus.publish({ kind: 'session.changed', session });
}

/**
 * Finding and installing ACP agents: the ACP registry's list (its published address unless the runtime
 * names another), and the installer of the presets and the registry's npm agents, publishing each step
 * as `acp.install.changed`.
 */
export function wireAcpDiscovery(
  runtime: RuntimeDeps,
  bus: EventBus,
): { acpRegistry: AcpRegistry; acpInstaller: AcpInstaller } {
  const acpRegistry = new AcpRegistry({
    dataDir: runtime.dataDir,
    url: runtime.acp?.registryUrl ?? ACP_REGISTRY_URL,
    now: () => runtime.clock.now(),
    logger: runtime.logger,
  });
  return { acpRegistry, acpInstaller: wireAcpInstaller(runtime, bus, acpRegistry) };
}

function wireAcpInstaller(runtime: RuntimeDeps, bus: EventBus, registry: AcpRegistry): AcpInstaller {
  return new AcpInstaller({
    registryAgents: () => registry.list().agents,
    dataDir: runtime.dataDir,
    now: () => runtime.clock.now(),
    logger: runtime.logger,
    publish: (install) => bus.publish({ kind: 'acp.install.changed', install }),
    ...(runtime.acp?.installSource === undefined ? {} : { installSource: runtime.acp.installSource }),
    ...(runtime.acp?.installKillGraceMs === undefined ? {} : { killGraceMs: runtime.acp.installKillGraceMs }),
  });
}

/**
 * An ACP turn stopped while its agent waited for a permission: the request is cancelled and the turn
 * ended. A session's permission mode changed: its running agent's mode follows at once.
 */
export function followAcpSessions(bus: EventBus, acp: AcpBackend, logger: RuntimeDeps['logger']): void {
  bus.subscribe((event) => {
    if (event.kind === 'turn.changed' && event.turn.status === 'cancelled')
      void acp.releaseWaiting(event.turn.sessionId);
    // Nothing is asked of the agent when its mode already fits (a rename, say).
    if (event.kind === 'session.changed') {
      const { sessionId } = event.session;
      acp
        .applyChoice(sessionId, null)
        .catch((error: unknown) =>
          logger.warn('The ACP agent’s mode could not follow the permission mode', { sessionId, error: String(error) }),
        );
    }
  });
}

/**
 * The person chose among what the session's agent offers: a value it offers, and for its mode one the
 * permission mode allows (a mode that acts without asking only in Full). Kept in the session's record
 * (applied again whenever the agent starts for the session), announced, and applied to the running agent.
 */
export async function chooseAcpOption(
  runtime: RuntimeDeps,
  bus: EventBus,
  acp: AcpBackend,
  request: { readonly sessionId: string; readonly selectorId: string; readonly value: string },
): Promise<Outcome<{ offers: AcpSessionOffers }, 'invalid_input' | 'not_found' | 'provider_error'>> {
  const { stores, clock } = runtime;
  const session = stores.sessions.get(request.sessionId);
  if (session === null) return fail('not_found', 'That session does not exist.');
  const selector = stores.acpOffers.offers(request.sessionId).selectors.find((item) => item.id === request.selectorId);
  if (selector === undefined) return fail('invalid_input', 'This session’s agent offers no such choice.');
  const choice = selector.choices.find((item) => item.value === request.value);
  if (choice === undefined)
    return fail('invalid_input', `The agent offers no “${request.value}” for ${selector.name}.`);
  if (
    isModeSelector(selector) &&
    !modesAllowed(
      selector.choices.map((item) => item.value),
      session.permissionMode,
    ).includes(choice.value)
  )
    return fail(
      'invalid_input',
      `“${choice.name}” lets the agent act without Cairn’s approval: it can be chosen only in Full mode.`,
    );
  const offers = stores.acpOffers.choose(request.sessionId, selector.id, choice.value, clock.now());
  bus.publish({ kind: 'acp.offers.changed', sessionId: request.sessionId, offers });
  try {
    await acp.applyChoice(request.sessionId, selector.id);
  } catch (error) {
    return fail(
      'provider_error',
      `Kept for the next start, but the running agent refused it: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return ok({ offers: stores.acpOffers.offers(request.sessionId) });
}

/** The agent of an ACP session as it named itself when it last started for the session; null before. */
export function acpAgentOf(stores: Stores, sessionId: string): AcpAgentIdentity | null {
  const resumePoint = stores.acp.resumePoint(sessionId);
  if (resumePoint === null || resumePoint.agentName === null) return null;
  return { name: resumePoint.agentName, title: resumePoint.agentTitle, version: resumePoint.agentVersion };
}
