import path from 'node:path';
import { OFFLINE_DEMO_CONNECTION_ID } from '../../src-shared/connection-model';
import { fail, ok, type Outcome } from '../../src-shared/errors';
import type { CodexTurnResult } from '../../src-shared/codex-model';
import type { UsageGroup, UsageTotals } from '../../src-shared/usage-model';
import type { SummaryRecord } from '../../src-shared/compaction-model';
import type { SecretVault } from '../storage/secret-vault';
import type { Stores } from '../storage/stores';
import type { UsageQuery } from '../storage/usage-store';
import type { AgentBackend } from './backends/agent-backend';
import { AttachmentService } from './attachments/attachment-service';
import { createModelAgentBackend } from './backends/model-agent-backend';
import { createScriptedBackend } from './backends/scripted-backend';
import { ChatService } from './chat/chat-service';
import { TitleWriter } from './chat/title-writer';
import { createCodexBackend, type CodexBackend } from './codex/codex-backend';
import { goalChangesFor } from './codex/goal-mirror';
import type { CodexBounds } from './codex/live-app-server';
import { ConnectionService, type ConnectionServiceDeps } from './connection-service';
import { EventBus } from './event-bus';
import type { Clock, Ids, Logger } from './ports';
import type { ProviderClient } from './provider-client';
import { recoverInterruptedRuns, type RecoveryReport } from './recovery';
import { AdmissionGate } from './lifecycle/admission-gate';
import { createContextRuntime, type ContextRuntime } from './context/context-runtime';
import { ReportedWindows } from './context/reported-windows';
import { createCompactionRuntime, type CompactionRuntime } from './compaction/compaction-runtime';
import { APP_SHUTDOWN, RunExecutor } from './run-executor';
import { SessionService } from './session-service';
import { AgentService } from './agents/agent-service';
import { createAgentTools } from './agents/agent-tools';
import { askUserTool } from './interactions/ask-user-tool';
import { InteractionService } from './interactions/interaction-service';
import { LiveInteractions } from './interactions/live-interactions';
import { GoalDriver } from './goals/goal-driver';
import { GoalService } from './goals/goal-service';
import { createGoalTools } from './goals/goal-tools';
import { GrantService } from './permissions/grant-service';
import type { McpBounds } from './mcp/mcp-connections';
import { McpServerService } from './mcp/mcp-server-service';
import { createPermissionGate } from './permissions/permission-gate';
import { currentTimeTool } from './tools/current-time-tool';
import { MemoryService } from './memory/memory-service';
import { BranchService } from './branches/branch-service';
import { createMemoryTools } from './memory/memory-tools';
import type { MemoryStoreOpening } from '../storage/memory-store';
import type { AgentTool } from './tools/agent-tool';
import type { ToolHost } from './tools/tool-runner';
import { createAgentCommandLog } from './shell/agent-commands';
import { ShellService } from './shell/shell-service';
import { createLoadSkillTool } from './skills/load-skill-tool';
import { SkillService } from './skills/skill-service';
import type { ToolSurfaceContext } from './tools/tool-surface';
import { createWorkspaceTools } from './workspace/workspace-tools';
import { TurnService } from './turn-service';
import { CheckpointService } from './checkpoints/checkpoint-service';
import { StorageDamage } from './storage-faults/storage-damage';
import { DATABASE_FILE } from '../storage/database';
import { createAutomations, type Automations } from './automations/automations';
import { CandidateFinder } from './workhub/candidate-finder';
import { createCoordinationBackend } from './workhub/coordination-backend';
import { createModelRouter } from './workhub/model-router';
import { scriptedRouter } from './workhub/scripted-router';
import { SearchIndexer } from './workhub/search-indexer';
import { WORKHUB_CONNECTION_ID, WorkHubService } from './workhub/workhub-service';

export interface RuntimeDeps {
  readonly stores: Stores;
  readonly vault: SecretVault;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly logger: Logger;
  readonly hostEpoch: string;
  readonly providers: ProviderClient;
  /** Backends for particular connection ids (tests); the Offline demo gets the scripted agent, others the model agent. */
  readonly backends: ReadonlyMap<string, AgentBackend>;
  readonly discoveryProbes: ConnectionServiceDeps['discoveryProbes'];
  readonly flushMs?: number;
  /** Backoff base for transient provider errors (tests shorten it). */
  readonly retryBaseMs?: number;
  /** The data directory (Codex's CODEX_HOME lives in it) and Cairn's version, told to Codex. */
  readonly dataDir: string;
  readonly cairnVersion: string;
  /** Codex sessions: provider retries and the bounds on every await (tests shorten them). */
  readonly codex?: { readonly retries?: number; readonly bounds?: Partial<CodexBounds>; readonly config?: readonly string[] };
  /** Automations: the clock the scheduler wakes by (tests drive it by hand) and a crash-injection hook. */
  readonly automations?: { readonly timer?: Clock; readonly afterRecord?: (firingId: string) => void };
  /** The optional long-term memory database, or why it could not be opened. */
  readonly memory?: MemoryStoreOpening;
  /** Transcript items a branch copies per transaction (tests shorten it). */
  readonly branchCopyChunk?: number;
  /** MCP servers: bounds on connecting and on one call (tests shorten them). */
  readonly mcpBounds?: Partial<McpBounds>;
  /** File checkpoints: the size cap, off (a bench baseline) and a crash-injection hook (after a commit object, before its ref). */
  readonly checkpoints?: { readonly maxFileBytes?: number; readonly disabled?: boolean; readonly afterCommitObject?: (changeSetId: string) => void };
  /** Whether a session's model writes its title after the first exchange (default true). */
  readonly modelTitles?: boolean;
}

export interface Runtime {
  readonly bus: EventBus;
  readonly sessions: SessionService;
  readonly turns: TurnService;
  readonly connections: ConnectionService;
  readonly interactions: InteractionService;
  readonly grants: GrantService;
  readonly skills: SkillService;
  readonly goals: GoalService;
  readonly workhub: WorkHubService;
  readonly shell: ShellService;
  readonly executor: RunExecutor;
  /** Whether new work may start; closed for good once shutdown begins. */
  readonly admission: AdmissionGate;
  /** Database damage found after start: answered as `storage_damaged`, announced once, and no new work starts. */
  readonly storageDamage: StorageDamage;
  readonly codex: CodexBackend;
  readonly automations: Automations;
  readonly memory: MemoryService;
  readonly branches: BranchService;
  readonly mcp: McpServerService;
  /** Message search, instructions, model settings and exports. */
  readonly chat: ChatService;
  readonly attachments: AttachmentService;
  readonly context: ContextRuntime;
  /** Summaries of older turns: Compact now, the threshold setting. */
  readonly compaction: CompactionRuntime;
  /** Subagents: child sessions, their trees and the Stop that cascades down them. */
  readonly agents: AgentService;
  /** Per-turn file checkpoints: change sets, their diffs, and reverts. */
  readonly checkpoints: CheckpointService;
  /** The structured results of a turn's Codex turns. */
  codexResults(sessionId: string, turnId: string): CodexTurnResult[];
  usage(query: UsageQuery): Outcome<{ totals: UsageTotals; groups: UsageGroup[] }>;
  /** Closes what the previous host left open and restarts queued work; call before serving. */
  recover(): RecoveryReport;
  /**
   * Closes admission (nothing new starts from now on), ends live runs as interrupted (resumable)
   * and waits briefly for their backends to let go.
   */
  shutdown(graceMs: number): Promise<void>;
}

/** A summary a model request can send: one with text (a native agent's compaction has none). */
function withText(summary: SummaryRecord | null): SummaryRecord | null {
  return summary?.text === null ? null : summary;
}

export function createRuntime(deps: RuntimeDeps): Runtime {
  const bus = new EventBus(deps.hostEpoch, deps.logger);
  const admission = new AdmissionGate();
  const storageDamage = new StorageDamage({ file: path.join(deps.dataDir, DATABASE_FILE), bus, logger: deps.logger, admission });
  const contextLengthOf = deps.providers.contextLengthOf?.bind(deps.providers);
  const reported = contextLengthOf === undefined ? undefined : new ReportedWindows({ lookup: contextLengthOf });
  const connections = new ConnectionService({
    ...deps,
    bus,
    reported,
    ...(deps.codex?.retries === undefined ? {} : { codexRetries: deps.codex.retries }),
    ...(deps.codex?.config === undefined ? {} : { codexConfig: deps.codex.config }),
    codexModels: (connectionId) => codex.listModels(connectionId),
  });
  const chat = new ChatService({ ...deps, connections });
  const gate = createPermissionGate({
    modeOf: (sessionId) => deps.stores.sessions.get(sessionId)?.permissionMode ?? 'ask',
    allowedForSession: (sessionId, toolName) => deps.stores.interactions.allowedForSession(sessionId, toolName),
  });
  let goals: GoalService | null = null;
  const goalService = () => {
    if (goals === null) throw new Error('Goals are not ready');
    return goals;
  };
  const goalTools = createGoalTools(goalService, deps.stores.goals);
  const shell = new ShellService({ ...deps, bus });
  let agents: AgentService | null = null;
  const agentService = () => {
    if (agents === null) throw new Error('Agents are not ready');
    return agents;
  };
  const agentTools = createAgentTools(agentService);
  let interactions: InteractionService | null = null;
  let compaction: CompactionRuntime | null = null;
  const context = createContextRuntime({
    dataDir: deps.dataDir,
    stores: deps.stores,
    bus,
    reported,
    reveal: (data) => interactions?.revealOutput(data) ?? data.output,
    summaries: { summaryOf: (id) => withText(compaction?.latest(id) ?? null), goalPinsOf: (id) => compaction?.goalPinsOf(id) ?? null, compactionThreshold: () => compaction?.settings().threshold ?? 1 },
  });
  const memory = new MemoryService({ ...deps, bus, memory: deps.memory ?? { unavailable: 'Memory is unavailable: no memory store was given to this host.' } });
  const memoryTools = createMemoryTools(memory);
  const live = new LiveInteractions({ ...deps, bus });
  const mcp = new McpServerService({ ...deps, bus, ask: (asker, question, signal) => live.ask(asker, question, signal), ...(deps.mcpBounds === undefined ? {} : { bounds: deps.mcpBounds }) });
  let skills: SkillService | null = null;
  const skillTool = createLoadSkillTool(() => {
    if (skills === null) throw new Error('Skills are not ready');
    return skills;
  });
  // File checkpoints (issue 28): writing workspace tools are wrapped; turn ends arrive on the bus (below).
  const checkpoints = new CheckpointService({
    ...deps,
    bus,
    isNative: (sessionId) => {
      const session = deps.stores.sessions.get(sessionId);
      return session !== null && connections.isCodex(session.connectionId);
    },
    ...deps.checkpoints,
  });
  bus.subscribe((event) => checkpoints.onEvent(event));
  /** The tool surface: every tool the agent of a session (or of a new session previewed) is offered. */
  const toolsIn = (surface: ToolSurfaceContext): AgentTool[] => {
    const root = surface.workspacePath;
    const workspace = root === null ? [] : checkpoints.guard(createWorkspaceTools({ root, shell: shell.toolOptions() }), root);
    const servers = surface.sessionId === null ? [] : mcp.toolsFor(surface.sessionId);
    return [askUserTool, currentTimeTool, ...goalTools, ...context.tools, ...memoryTools, ...workspace, skillTool, ...servers].filter((tool) => gate.offersIn(surface.permissionMode, tool));
  };
  const sessionTools = (sessionId: string): AgentTool[] => {
    const session = deps.stores.sessions.get(sessionId);
    if (session === null) return [];
    const own = toolsIn({ sessionId, workspacePath: session.workspacePath, permissionMode: session.permissionMode, connectionId: session.connectionId });
    return agentService().surface(sessionId, own, agentTools.filter((tool) => gate.offersIn(session.permissionMode, tool)));
  };
  const toolHost: ToolHost = {
    toolsFor: (sessionId) => sessionTools(sessionId),
    check: (sessionId, tool, input) => gate.check(sessionId, tool, input),
    prepare: (sessionId) => mcp.prepare(sessionId),
  };
  const attachments = new AttachmentService({
    ...deps,
    resolveTarget: (connectionId, model) => connections.resolveTarget(connectionId, model),
    isCodex: (connectionId) => connections.isCodex(connectionId),
  });
  const modelBackend = createModelAgentBackend({
    resolveTarget: (connectionId, model) => connections.resolveTarget(connectionId, model),
    streamStep: (request) => deps.providers.streamModelStep(request),
    costOf: (target, usage) => deps.providers.costOf(target.modelId, usage, target.providerType),
    tools: toolHost,
    memoryBrief: (sessionId) => memory.briefFor(sessionId),
    instructionsFor: (sessionId) => skills?.promptFor(sessionId) ?? Promise.resolve(null),
    context: context.model,
    now: () => deps.clock.now(),
    preferencesOf: (sessionId, connectionId) => chat.preferences.forRun(sessionId, connectionId),
    loadAttachment: (ref) => attachments.load(ref),
    systemPromptFor: (sessionId) => agents?.systemPromptFor(sessionId) ?? null,
    compact: (request) => {
      if (compaction === null) throw new Error('Compaction is not ready');
      return compaction.compactInRun(request);
    },
    ...(deps.retryBaseMs === undefined ? {} : { retryBaseMs: deps.retryBaseMs }),
  });
  let workhub: WorkHubService | null = null;
  const workhubService = () => {
    if (workhub === null) throw new Error('The WorkHub is not ready');
    return workhub;
  };
  const backends = new Map(deps.backends);
  backends.set(WORKHUB_CONNECTION_ID, createCoordinationBackend(workhubService));
  if (!backends.has(OFFLINE_DEMO_CONNECTION_ID)) {
    backends.set(OFFLINE_DEMO_CONNECTION_ID, createScriptedBackend({ tools: toolHost, now: () => deps.clock.now() }));
  }
  let executorReady: RunExecutor | null = null;
  const compactionReady = createCompactionRuntime({
    ...deps,
    bus,
    admission,
    reveal: (data) => interactions?.revealOutput(data) ?? data.output,
    context: () => context.model,
    executor: () => {
      if (executorReady === null) throw new Error('The executor is not ready');
      return executorReady;
    },
    resolveTarget: (connectionId, model) => connections.resolveTarget(connectionId, model),
    streamStep: (request) => deps.providers.streamModelStep(request),
    costOf: (target, usage) => deps.providers.costOf(target.modelId, usage, target.providerType),
    scripted: (connectionId) => backends.has(connectionId),
    nativeCompaction: (input, signal) => (connections.isCodex(input.connectionId) ? codex.compact(input, signal) : null),
  });
  compaction = compactionReady;
  let turns: TurnService | null = null;
  const driver = new GoalDriver({
    stores: deps.stores,
    logger: deps.logger,
    goals: goalService,
    turns: () => {
      if (turns === null) throw new Error('Turns are not ready');
      return turns;
    },
  });
  const codex = createCodexBackend({
    resolve: (connectionId, model) => connections.codexTarget(connectionId, model),
    sessionOf: (sessionId) => deps.stores.sessions.get(sessionId),
    checkpoints: deps.stores.codex,
    allowedForSession: (sessionId, toolName) => deps.stores.interactions.allowedForSession(sessionId, toolName),
    dataDir: deps.dataDir,
    cairnVersion: deps.cairnVersion,
    newInstanceId: () => crypto.randomUUID(),
    now: () => deps.clock.now(),
    logger: deps.logger,
    ...(deps.codex?.bounds === undefined ? {} : { bounds: deps.codex.bounds }),
    goalOf(sessionId, turnId) {
      const goalId = deps.stores.turns.goalOf(sessionId, turnId);
      const goal = goalId === null ? null : deps.stores.goals.get(goalId);
      return goal === null || goal.cleared ? null : { goalId: goal.goalId, objective: goal.objective, tokenBudget: goal.tokenBudget };
    },
    hasGoal: (sessionId) => deps.stores.goals.current(sessionId) !== null,
    commands: createAgentCommandLog({ ...deps, store: deps.stores.shellRuns, bus }),
    isDelegation: (sessionId, turnId) => deps.stores.turns.getTurn(sessionId, turnId)?.origin === 'delegation',
    onContextMeter: (sessionId, meter) => context.noteMeter(sessionId, meter),
    onQuarantine: (sessionId, quarantine) => bus.publish({ kind: 'codex.quarantine.changed', sessionId, quarantine }),
    onContextCompacted: (run) => compactionReady.recordNative(run),
    onGoalUpdate(sessionId, goalId, update) {
      const goal = deps.stores.goals.current(sessionId);
      if (goal?.goalId !== goalId) return;
      const changes = goalChangesFor(goal, update);
      if (changes !== null) goalService().change(goal, changes);
    },
  });
  const executor = new RunExecutor({
    ...deps,
    bus,
    admission,
    storageDamage,
    backendFor: (connectionId, origin) =>
      origin === 'compaction' ? compactionReady.backend : (backends.get(connectionId) ?? (connections.isCodex(connectionId) ? codex : modelBackend)),
    revealToolOutput: (data) => interactions?.revealOutput(data) ?? data.output,
    accountRunEnd: (run, status) => [...live.closeForEndedRun(run), ...driver.accountRunEnd(run, status)],
    onRunEnded(run, status) {
      if (status === 'completed' || status === 'failed') turns?.drainQueue(run.sessionId);
      driver.onRunEnded(run);
    },
  });
  executorReady = executor;
  interactions = new InteractionService({ ...deps, bus, executor, admission, live });
  turns = new TurnService({ ...deps, bus, executor, interactions, admission });
  skills = new SkillService({
    session: (sessionId) => deps.stores.sessions.get(sessionId),
    connectionExists: (connectionId) => connections.get(connectionId) !== null,
    defaultConnectionId: () => connections.defaultTarget().connectionId,
    personalDir: path.join(deps.dataDir, 'skills'),
    toolSurface: (context) =>
      context.connectionId === WORKHUB_CONNECTION_ID || connections.isCodex(context.connectionId)
        ? { kind: 'native', message: 'This connection runs an agent with its own tools; Cairn’s skills work with the built-in agent and the Offline demo.' }
        : { kind: 'tools', names: toolsIn(context).map((tool) => tool.name) },
  });
  const skillsReady = skills;
  const sessions = new SessionService({ ...deps, bus, turns, connections, progressOf: (sessionId) => executor.progressOf(sessionId) });
  const turnService = turns;
  agents = new AgentService({ ...deps, bus, admission, turns: () => turnService });
  const agentServiceReady = agents;
  goals = new GoalService({
    ...deps,
    bus,
    poke: (sessionId) => driver.poke(sessionId),
    stopGoalTurn: (sessionId, source) => {
      const active = deps.stores.turns.activeTurn(sessionId);
      if (active !== null && active.origin === 'goal') turnService.stop(sessionId, active.turnId, source);
    },
  });
  const goalServiceReady = goals;
  const branches = new BranchService({ ...deps, bus, admission, turns: turnService, ...(deps.branchCopyChunk === undefined ? {} : { chunkSize: deps.branchCopyChunk }) });
  // A Codex turn stopped while Codex waited for an approval or answer: its app-server is ended now.
  bus.subscribe((event) => {
    if (event.kind === 'turn.changed' && event.turn.status === 'cancelled') void codex.releaseWaiting(event.turn.sessionId);
  });
  // A Codex session's goal cleared in Cairn: its thread goal is cleared too.
  bus.subscribe((event) => {
    if (event.kind !== 'goal.changed' || !event.goal.cleared) return;
    const session = deps.stores.sessions.get(event.goal.sessionId);
    if (session !== null && connections.isCodex(session.connectionId)) codex.clearGoal(event.goal.sessionId);
  });
  const indexer = new SearchIndexer(deps.stores, deps.logger);
  bus.subscribe((event) => indexer.onEvent(event));
  const titles = new TitleWriter({
    ...deps,
    bus,
    usesModel: (connectionId) => !backends.has(connectionId) && !connections.isCodex(connectionId),
    resolveTarget: (connectionId, model) => connections.resolveTarget(connectionId, model),
    streamStep: (request) => deps.providers.streamModelStep(request),
    costOf: (target, usage) => deps.providers.costOf(target.modelId, usage, target.providerType),
    isOpen: () => admission.isOpen,
  });
  if (deps.modelTitles !== false) bus.subscribe((event) => titles.onEvent(event));
  const scriptedRouting = () => connections.defaultTarget().connectionId === OFFLINE_DEMO_CONNECTION_ID;
  const modelRouter = createModelRouter({
    target: () => {
      const target = connections.defaultTarget();
      const resolved = connections.resolveTarget(target.connectionId, target.modelId);
      return 'error' in resolved ? resolved : resolved;
    },
    streamStep: (request) => deps.providers.streamModelStep(request),
  });
  workhub = new WorkHubService({
    ...deps,
    bus,
    finder: new CandidateFinder(deps.stores, deps.clock),
    router: () => (scriptedRouting() ? scriptedRouter : modelRouter),
    turns: turnService,
    sessions,
  });
  const workhubReady = workhub;
  const automations = createAutomations({ ...deps, bus, admission, turns: turnService, sessions, connections });
  return {
    bus,
    sessions,
    turns: turnService,
    connections,
    interactions,
    grants: new GrantService(deps),
    skills: skillsReady,
    goals: goalServiceReady,
    workhub: workhubReady,
    shell,
    executor,
    admission,
    storageDamage,
    codex,
    automations,
    memory,
    branches,
    mcp,
    chat,
    attachments,
    context,
    compaction: compactionReady,
    agents: agentServiceReady,
    checkpoints,
    codexResults: (sessionId, turnId) => deps.stores.codex.turnResults(sessionId, turnId),
    usage(query) {
      if (query.sessionId !== undefined && deps.stores.sessions.get(query.sessionId) === null) {
        return fail('not_found', 'That session does not exist.');
      }
      return ok(deps.stores.usage.summary(query));
    },
    recover() {
      const report = recoverInterruptedRuns(deps.stores, deps.clock, deps.logger);
      branches.recover();
      const orphans = shell.recover();
      if (Object.values(orphans).some((count) => count > 0)) deps.logger.info('Closed shell runs the previous host left behind', { ...orphans });
      workhubReady.ensureSession();
      indexer.catchUp();
      for (const sessionId of deps.stores.queue.sessionsWithQueued()) turnService.drainQueue(sessionId);
      driver.resumeAll();
      automations.scheduler.start();
      memory.announce();
      mcp.reconnectEnabled();
      void checkpoints.recover();
      return report;
    },
    async shutdown(graceMs) {
      admission.close();
      automations.scheduler.stop();
      titles.abortAll();
      await executor.endAll({ status: 'interrupted', terminalReason: APP_SHUTDOWN }, graceMs);
      await shell.shutdown();
      await codex.shutdown();
      await mcp.shutdown();
    },
  };
}
