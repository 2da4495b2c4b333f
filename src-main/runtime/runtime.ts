import path from 'node:path';
import { fail, ok } from '../../src-shared/errors';
import { AgentService } from './subagents/agent-service';
import { AttachmentService } from './attachments/attachment-service';
import { createAutomations } from './automations/automations';
import { BranchService } from './branches/branch-service';
import { ChatService } from './conversations/chat-service';
import { TitleWriter } from './sessions/title-writer';
import type { CodexBackend } from './agent-backends/codex/codex-backend';
import { compactNow } from './compaction/compact-now';
import { createCompactionRuntime } from './compaction/compaction-runtime';
import { acpAgentOf, chooseAcpOption, followAcpSessions, wireAcp, wireAcpDiscovery } from './composition/acp-wiring';
import { createAcpImport } from './composition/acp-import';
import { wireAcpLogins } from './composition/acp-login-wiring';
import { hasFixedBackend, wireBackends } from './composition/backend-wiring';
import { wireCheckpoints } from './composition/checkpoint-wiring';
import { WorktreeService } from './worktrees/worktree-service';
import { createCodexThreadChoices } from './agent-backends/codex/thread-choice';
import { testAcpAgent } from './agent-backends/acp/acp-connection';
import type { AgentBackend } from './contract/agent-backend';
import { StorageDamage } from './storage-faults/storage-damage';
import { DATABASE_FILE } from '../storage/database';
import { followCodexSessions, wireCodex } from './composition/codex-wiring';
import { wireGoals } from './composition/goal-wiring';
import { BuiltLater } from './composition/built-later';
import { recoverRuntime, shutdownRuntime, type LifecycleParts } from './composition/lifecycle';
import { modelAccess } from './composition/model-access';
import type { Runtime, RuntimeDeps } from './composition/runtime-contract';
import { wireSandbox } from './composition/sandbox-wiring';
import { wireSkills } from './composition/skill-wiring';
import { wireTools } from './composition/tool-wiring';
import { wireHooks } from './composition/hook-wiring';
import { HookSettingsService } from './hooks/hook-settings-service';
import { wireWorkHub } from './composition/workhub-wiring';
import { ConnectionService } from './connections/connection-service';
import { createContextRuntime } from './context/context-runtime';
import { ReportedWindows } from './context/reported-windows';
import { storedSummaries } from './context/stored-summaries';
import { EventBus } from './ports/event-bus';
import { GoalDriver } from './goals/goal-driver';
import type { GoalService } from './goals/goal-service';
import { revealToolOutput } from './interactions/full-answer';
import { InteractionService } from './interactions/interaction-service';
import { LiveInteractions } from './interactions/live-interactions';
import { AdmissionGate } from './lifecycle/admission-gate';
import { McpServerService } from './mcp/mcp-server-service';
import { MemoryService } from './memory/memory-service';
import { GrantService } from './permissions/grant-service';
import { RunExecutor } from './turns/run-executor';
import { SessionService } from './sessions/session-service';
import { ShellService } from './shell/shell-service';
import { autoRefusal } from './sandbox/sandbox-service';
import type { SkillService } from './skills/skill-service';
import { TurnService } from './turns/turn-service';
import { SearchIndexer } from './workhub/search-indexer';
import type { WorkHubService } from './workhub/workhub-service';

export type { Runtime, RuntimeDeps } from './composition/runtime-contract';

/**
 * The composition root: builds every runtime service once, in the order of the runtime's tiers
 * (ARCHITECTURE.md §2), and hands them to each other: the core, the services a turn uses, what runs
 * turns (compaction, the backends, the executor, answers, turns), the features built on turns, then
 * the runtime they make together. Only objects that truly need each other meet through a BuiltLater (set
 * once the later one is built): each is a cycle of a run's life, listed in §2.
 */
export function createRuntime(deps: RuntimeDeps): Runtime {
  const core = createCore(deps);
  const services = createTurnServices(deps, core);
  const runs = createRunMachinery(deps, core, services);
  const features = createFeatures(deps, core, services, runs);
  return assembleRuntime(deps, core, services, runs, features);
}

type Core = ReturnType<typeof createCore>;
type TurnServices = ReturnType<typeof createTurnServices>;
type RunMachinery = ReturnType<typeof createRunMachinery>;
type Features = ReturnType<typeof createFeatures>;

/** The change-event bus, the admission gate, storage damage, answers revealed to the model, and the BuiltLaters later parts fill. */
function createCore(deps: RuntimeDeps) {
  const bus = new EventBus(deps.hostEpoch, deps.logger);
  const admission = new AdmissionGate();
  const storageDamage = new StorageDamage({
    file: path.join(deps.dataDir, DATABASE_FILE),
    bus,
    logger: deps.logger,
    admission,
  });
  const late = {
    goals: new BuiltLater<GoalService>('Goals are not ready'),
    agents: new BuiltLater<AgentService>('Agents are not ready'),
    skills: new BuiltLater<SkillService>('Skills are not ready'),
    turns: new BuiltLater<TurnService>('Turns are not ready'),
    workhub: new BuiltLater<WorkHubService>('The WorkHub is not ready'),
    codex: new BuiltLater<CodexBackend>('Codex is not ready'),
  };
  const reveal = revealToolOutput(deps);
  return { bus, admission, storageDamage, late, reveal };
}

/** What a turn uses: connections and models, the sandbox, context, memory, MCP, checkpoints and tools. */
function createTurnServices(deps: RuntimeDeps, { bus, late, reveal }: Core) {
  const contextLengthOf = deps.providers.contextLengthOf?.bind(deps.providers);
  const reported = contextLengthOf === undefined ? undefined : new ReportedWindows({ lookup: contextLengthOf });
  const connections = new ConnectionService({
    ...deps,
    bus,
    reported,
    ...(deps.codex?.retries === undefined ? {} : { codexRetries: deps.codex.retries }),
    ...(deps.codex?.config === undefined ? {} : { codexConfig: deps.codex.config }),
    codexModels: (connectionId) => late.codex.get().listModels(connectionId),
    testAcpAgent: (agent) => testAcpAgent(agent, deps.cairnVersion),
  });
  const model = modelAccess(connections, deps.providers);
  const chat = new ChatService({ ...deps, connections });
  const shell = new ShellService({ ...deps, bus });
  const { sandboxSettings, networkCards, sandbox } = wireSandbox(deps, bus);
  const context = createContextRuntime({
    dataDir: deps.dataDir,
    stores: deps.stores,
    bus,
    reported,
    logger: deps.logger,
    reveal,
    summaries: storedSummaries(deps.stores),
  });
  const memory = new MemoryService({
    ...deps,
    bus,
    memory: deps.memory ?? { unavailable: 'Memory is unavailable: no memory store was given to this host.' },
  });
  const live = new LiveInteractions({ ...deps, bus });
  const mcp = new McpServerService({
    ...deps,
    bus,
    ask: (asker, question, signal) => live.ask(asker, question, signal),
    ...(deps.mcpBounds === undefined ? {} : { bounds: deps.mcpBounds }),
  });
  const checkpoints = wireCheckpoints(deps, bus, connections);
  const worktrees = new WorktreeService({ ...deps, bus, ...deps.worktrees });
  // A worktree made while its session was "New session" takes the title's name once it arrives.
  bus.subscribe((event) => {
    if (event.kind === 'session.changed') void worktrees.nameBranchAfterTitle(event.session.sessionId);
  });
  const { hooks, turnHooks } = wireHooks(deps, bus);
  const tools = wireTools({
    hooks,
    stores: deps.stores,
    shell,
    sandbox,
    checkpoints,
    context,
    memory,
    mcp,
    goals: late.goals,
    agents: late.agents,
    skills: late.skills,
  });
  const attachments = new AttachmentService({
    ...deps,
    resolveTarget: (connectionId, model) => connections.targets.resolveTarget(connectionId, model),
    isCodex: (connectionId) => connections.targets.isCodex(connectionId),
  });
  return {
    connections,
    model,
    chat,
    shell,
    sandboxSettings,
    networkCards,
    sandbox,
    context,
    memory,
    live,
    mcp,
    checkpoints,
    worktrees,
    tools,
    attachments,
    hooks,
    turnHooks,
  };
}

/** What runs turns: compaction, the backends (in-process, Codex, ACP), the executor, answers and the turn service. */
function createRunMachinery(
  deps: RuntimeDeps,
  { bus, admission, storageDamage, late, reveal }: Core,
  services: TurnServices,
) {
  const {
    connections,
    model,
    context,
    live,
    mcp,
    shell,
    sandbox,
    networkCards,
    tools,
    memory,
    chat,
    attachments,
    turnHooks,
  } = services;
  const compaction = createCompactionRuntime({
    ...deps,
    ...model,
    bus,
    admission,
    reveal,
    context: () => context.model,
    scripted: (connectionId) => hasFixedBackend(deps, connectionId),
    nativeCompaction: (input, signal) =>
      connections.targets.isCodex(input.connectionId) ? late.codex.get().compact(input, signal) : null,
  });
  const backends = wireBackends(deps, {
    model,
    tools: tools.toolHost,
    memory,
    context,
    chat,
    attachments,
    skills: late.skills,
    agents: late.agents,
    compaction,
    workhub: late.workhub,
  });
  const driver = new GoalDriver({
    stores: deps.stores,
    logger: deps.logger,
    goals: () => late.goals.get(),
    turns: () => late.turns.get(),
  });
  const codexThreads = createCodexThreadChoices({
    ...deps,
    bus,
    resume: (sessionId, turnId) => late.turns.get().resume(sessionId, turnId),
  });
  const codex = late.codex.set(
    wireCodex(deps, {
      bus,
      connections,
      context,
      compaction,
      goals: late.goals,
      threads: codexThreads,
      commands: shell.agentCommands,
    }),
  );
  const acpLogins = wireAcpLogins(deps, bus, connections);
  const acp = wireAcp(deps, bus, connections, mcp, shell, context, sandbox, acpLogins);
  const discovery = wireAcpDiscovery(deps, bus);
  const nativeBackendOf = (connectionId: string): AgentBackend | null =>
    connections.targets.isCodex(connectionId) ? codex : connections.targets.isAcp(connectionId) ? acp : null;
  const executor = new RunExecutor({
    ...deps,
    bus,
    admission,
    storageDamage,
    backendFor: (connectionId, origin) =>
      origin === 'compaction'
        ? compaction.backend
        : (backends.fixed.get(connectionId) ?? nativeBackendOf(connectionId) ?? backends.model),
    revealToolOutput: reveal,
    turnHooks,
    accountRunEnd: (run, status) => [...live.closeForEndedRun(run), ...driver.accountRunEnd(run, status)],
    onRunEnded(run, status) {
      if (status === 'completed' || status === 'failed') late.turns.current?.drainQueue(run.sessionId);
      driver.onRunEnded(run);
    },
  });
  const interactions = new InteractionService({
    ...deps,
    bus,
    executor,
    admission,
    live,
    network: networkCards,
    failStop: (sessionId, reason) => late.agents.get().failStop(sessionId, reason),
  });
  const turns = late.turns.set(
    new TurnService({ ...deps, bus, executor, interactions, admission, attachments: services.attachments }),
  );
  return {
    compaction: {
      ...compaction,
      compactNow: (sessionId: string) => compactNow({ ...deps, bus, admission, executor }, sessionId),
    },
    backends,
    driver,
    codexThreads,
    codex,
    acp,
    ...discovery,
    acpLogins,
    nativeBackendOf,
    executor,
    interactions,
    turns,
  };
}

/** Built on turns: skills, sessions, subagents, goals, branches, search, titles, the WorkHub and automations. */
function createFeatures(deps: RuntimeDeps, { bus, admission, late }: Core, services: TurnServices, runs: RunMachinery) {
  const { connections, model, tools, sandbox, checkpoints, worktrees } = services;
  const { backends, nativeBackendOf, executor, turns, driver, codex, acp } = runs;
  const skills = late.skills.set(
    wireSkills(deps, connections, tools.surfaceOf, (connectionId) => nativeBackendOf(connectionId) !== null),
  );
  const sessions = new SessionService({
    ...deps,
    bus,
    turns,
    connections,
    progressOf: (sessionId) => executor.progressOf(sessionId),
    sessionEnded: (sessionId, reason) => services.turnHooks.sessionEnded(sessionId, reason),
    sandbox: { defaultMode: () => sandbox.defaultMode(), autoRefusal: () => autoRefusal(sandbox.availability) },
  });
  const agents = late.agents.set(
    new AgentService({
      ...deps,
      bus,
      admission,
      turns: () => turns,
      giveWorktree: (sessionId) => worktrees.create(sessionId),
    }),
  );
  const goals = late.goals.set(wireGoals(deps, bus, driver, turns));
  const branches = new BranchService({
    ...deps,
    bus,
    admission,
    turns,
    checkpoints,
    ...(deps.branchCopyChunk === undefined ? {} : { chunkSize: deps.branchCopyChunk }),
  });

  followCodexSessions(bus, deps.stores, connections, codex);
  followAcpSessions(bus, acp, deps.logger);
  const indexer = new SearchIndexer(deps.stores, deps.logger);
  bus.subscribe((event) => indexer.onEvent(event));
  const titles = new TitleWriter({
    ...deps,
    ...model,
    bus,
    usesModel: (connectionId) => !backends.fixed.has(connectionId) && nativeBackendOf(connectionId) === null,
    isOpen: () => admission.isOpen,
  });
  if (deps.modelTitles !== false) bus.subscribe((event) => titles.onEvent(event));
  const workhub = late.workhub.set(wireWorkHub(deps, { bus, connections, turns, sessions }));
  const automations = createAutomations({ ...deps, bus, admission, turns, sessions, connections });
  return { skills, sessions, agents, goals, branches, indexer, titles, workhub, automations };
}

/** The runtime the parts make together, with recover and shutdown over what each part left open. */
function assembleRuntime(
  deps: RuntimeDeps,
  core: Core,
  services: TurnServices,
  runs: RunMachinery,
  features: Features,
): Runtime {
  const { bus, admission, storageDamage } = core;
  const {
    connections,
    shell,
    sandbox,
    sandboxSettings,
    memory,
    mcp,
    chat,
    attachments,
    context,
    checkpoints,
    worktrees,
    hooks,
  } = services;
  const { executor, turns, interactions, driver, codex, acp, acpInstaller, acpLogins, codexThreads, compaction } = runs;
  const { sessions, skills, goals, workhub, automations, branches, agents, indexer, titles } = features;
  const lifecycle: LifecycleParts = {
    admission,
    executor,
    turns,
    driver,
    branches,
    shell,
    hooks,
    workhub,
    indexer,
    automations,
    memory,
    mcp,
    titles,
    codex,
    acp,
    acpInstaller,
    acpLogins,
    checkpoints,
    worktrees,
  };
  return {
    bus,
    sessions,
    turns,
    connections,
    interactions,
    grants: new GrantService({ ...deps, hosts: sandboxSettings }),
    skills,
    goals,
    workhub,
    shell,
    sandbox,
    sandboxSettings,
    executor,
    admission,
    storageDamage,
    codex,
    acpInstaller,
    acpRegistry: runs.acpRegistry,
    acpLogins,
    codexThreads,
    automations,
    memory,
    branches,
    mcp,
    chat,
    attachments,
    context,
    compaction,
    agents,
    checkpoints,
    worktrees,
    hooks,
    hookSettings: new HookSettingsService({ stores: deps.stores, hooks, dataDir: deps.dataDir }),
    codexResults: (sessionId, turnId) => deps.stores.codex.turnResults(sessionId, turnId),
    acpAgentOf: (sessionId) => acpAgentOf(deps.stores, sessionId),
    acpOffersOf: (sessionId) => deps.stores.acpOffers.offers(sessionId),
    acpChoose: (request) => chooseAcpOption(deps, bus, acp, request),
    acpImport: createAcpImport(deps, bus, connections, sessions),
    usage(query) {
      if (query.sessionId !== undefined && deps.stores.sessions.get(query.sessionId) === null)
        return fail('not_found', 'That session does not exist.');
      return ok(deps.stores.usage.summary(query));
    },
    recover: () => recoverRuntime(deps, lifecycle),
    shutdown: (graceMs) => shutdownRuntime(lifecycle, graceMs),
  };
}
