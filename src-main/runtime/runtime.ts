import { OFFLINE_DEMO_CONNECTION_ID } from '../../src-shared/connection-model';
import { fail, ok, type Outcome } from '../../src-shared/errors';
import type { CodexTurnResult } from '../../src-shared/codex-model';
import type { UsageGroup, UsageTotals } from '../../src-shared/usage-model';
import type { SecretVault } from '../storage/secret-vault';
import type { Stores } from '../storage/stores';
import type { UsageQuery } from '../storage/usage-store';
import type { AgentBackend } from './backends/agent-backend';
import { createModelAgentBackend } from './backends/model-agent-backend';
import { createScriptedBackend } from './backends/scripted-backend';
import { createCodexBackend, type CodexBackend } from './codex/codex-backend';
import { goalChangesFor } from './codex/goal-mirror';
import type { CodexBounds } from './codex/live-app-server';
import { ConnectionService, type ConnectionServiceDeps } from './connection-service';
import { EventBus } from './event-bus';
import type { Clock, Ids, Logger } from './ports';
import type { ProviderClient } from './provider-client';
import { recoverInterruptedRuns, type RecoveryReport } from './recovery';
import { AdmissionGate } from './lifecycle/admission-gate';
import { APP_SHUTDOWN, RunExecutor } from './run-executor';
import { SessionService } from './session-service';
import { AgentService } from './agents/agent-service';
import { createAgentTools } from './agents/agent-tools';
import { askUserTool } from './interactions/ask-user-tool';
import { InteractionService } from './interactions/interaction-service';
import { GoalDriver } from './goals/goal-driver';
import { GoalService } from './goals/goal-service';
import { createGoalTools } from './goals/goal-tools';
import { GrantService } from './permissions/grant-service';
import { createPermissionGate } from './permissions/permission-gate';
import { currentTimeTool } from './tools/current-time-tool';
import type { AgentTool } from './tools/agent-tool';
import type { ToolHost } from './tools/tool-runner';
import { createAgentCommandLog } from './shell/agent-commands';
import { ShellService } from './shell/shell-service';
import { createWorkspaceTools } from './workspace/workspace-tools';
import { TurnService } from './turn-service';
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
  readonly codex?: { readonly retries?: number; readonly bounds?: Partial<CodexBounds> };
}

export interface Runtime {
  readonly bus: EventBus;
  readonly sessions: SessionService;
  readonly turns: TurnService;
  readonly connections: ConnectionService;
  readonly interactions: InteractionService;
  readonly grants: GrantService;
  readonly goals: GoalService;
  readonly workhub: WorkHubService;
  readonly shell: ShellService;
  readonly executor: RunExecutor;
  /** Whether new work may start; closed for good once shutdown begins. */
  readonly admission: AdmissionGate;
  readonly codex: CodexBackend;
  /** Subagents: child sessions, their trees and the Stop that cascades down them. */
  readonly agents: AgentService;
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

export function createRuntime(deps: RuntimeDeps): Runtime {
  const bus = new EventBus(deps.hostEpoch, deps.logger);
  const admission = new AdmissionGate();
  const connections = new ConnectionService({ ...deps, bus, ...(deps.codex?.retries === undefined ? {} : { codexRetries: deps.codex.retries }) });
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
  const sessionTools = (sessionId: string): AgentTool[] => {
    const root = deps.stores.sessions.get(sessionId)?.workspacePath ?? null;
    const workspace = root === null ? [] : createWorkspaceTools({ root, shell: shell.toolOptions() });
    return agentService().surface(sessionId, [askUserTool, currentTimeTool, ...goalTools, ...workspace], agentTools);
  };
  const toolHost: ToolHost = {
    toolsFor: (sessionId) => sessionTools(sessionId).filter((tool) => gate.offers(sessionId, tool)),
    check: (sessionId, tool, input) => gate.check(sessionId, tool, input),
  };
  const modelBackend = createModelAgentBackend({
    resolveTarget: (connectionId, model) => connections.resolveTarget(connectionId, model),
    streamStep: (request) => deps.providers.streamModelStep(request),
    costOf: (target, usage) => deps.providers.costOf(target.modelId, usage, target.providerType),
    tools: toolHost,
    now: () => deps.clock.now(),
    systemPromptFor: (sessionId) => agents?.systemPromptFor(sessionId) ?? null,
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
  let turns: TurnService | null = null;
  let interactions: InteractionService | null = null;
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
    commands: createAgentCommandLog({ ...deps, store: deps.stores.shellRuns, bus }),
    isDelegation: (sessionId, turnId) => deps.stores.turns.getTurn(sessionId, turnId)?.origin === 'delegation',
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
    backendFor: (connectionId) => backends.get(connectionId) ?? (connections.isCodex(connectionId) ? codex : modelBackend),
    revealToolOutput: (data) => interactions?.revealOutput(data) ?? data.output,
    accountRunEnd: (run, status) => driver.accountRunEnd(run, status),
    onRunEnded(run, status) {
      if (status === 'completed' || status === 'failed') turns?.drainQueue(run.sessionId);
      driver.onRunEnded(run);
    },
  });
  interactions = new InteractionService({ ...deps, bus, executor, admission });
  turns = new TurnService({ ...deps, bus, executor, interactions, admission });
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
  return {
    bus,
    sessions,
    turns: turnService,
    connections,
    interactions,
    grants: new GrantService(deps),
    goals: goalServiceReady,
    workhub: workhubReady,
    shell,
    executor,
    admission,
    codex,
    agents: agentServiceReady,
    codexResults: (sessionId, turnId) => deps.stores.codex.turnResults(sessionId, turnId),
    usage(query) {
      if (query.sessionId !== undefined && deps.stores.sessions.get(query.sessionId) === null) {
        return fail('not_found', 'That session does not exist.');
      }
      return ok(deps.stores.usage.summary(query));
    },
    recover() {
      const report = recoverInterruptedRuns(deps.stores, deps.clock, deps.logger);
      const orphans = shell.recover();
      if (Object.values(orphans).some((count) => count > 0)) deps.logger.info('Closed shell runs the previous host left behind', { ...orphans });
      workhubReady.ensureSession();
      indexer.catchUp();
      for (const sessionId of deps.stores.queue.sessionsWithQueued()) turnService.drainQueue(sessionId);
      driver.resumeAll();
      return report;
    },
    async shutdown(graceMs) {
      admission.close();
      await executor.endAll({ status: 'interrupted', terminalReason: APP_SHUTDOWN }, graceMs);
      await shell.shutdown();
      await codex.shutdown();
    },
  };
}
