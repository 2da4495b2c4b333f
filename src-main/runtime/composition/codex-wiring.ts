import type { Stores } from '../../storage/stores';
import { createCodexBackend, type CodexBackend } from '../agent-backends/codex/codex-backend';
import { goalChangesFor } from '../agent-backends/codex/goal-mirror';
import type { CodexThreadChoices } from '../agent-backends/codex/thread-choice';
import type { CompactionRuntime } from '../compaction/compaction-runtime';
import type { ConnectionService } from '../connections/connection-service';
import type { ContextRuntime } from '../context/context-runtime';
import type { EventBus } from '../ports/event-bus';
import type { GoalService } from '../goals/goal-service';
import type { AgentCommandLog } from '../shell/agent-commands';
import type { BuiltLater } from './built-later';
import type { RuntimeDeps } from './runtime-contract';

export interface CodexWiringDeps {
  readonly bus: EventBus;
  readonly connections: ConnectionService;
  readonly context: ContextRuntime;
  readonly compaction: CompactionRuntime;
  readonly goals: BuiltLater<GoalService>;
  /** Threads that could not be resumed: announced, and the person's choice recorded. */
  readonly threads: CodexThreadChoices;
  /** Where Codex's commands are kept as shell runs (the shell service's, so Stop reaches them). */
  readonly commands: AgentCommandLog;
}

/** The Codex backend, told about sessions, goals, approvals, context and compaction through Cairn's stores and services. */
export function wireCodex(runtime: RuntimeDeps, deps: CodexWiringDeps): CodexBackend {
  const { stores } = runtime;
  const { bus, connections } = deps;
  return createCodexBackend({
    resolve: (connectionId, model) => connections.targets.codexTarget(connectionId, model),
    sessionOf: (sessionId) => stores.sessions.get(sessionId),
    codexStore: stores.codex,
    threads: stores.codexThreads,
    onThreadProblem: (sessionId, problem) => deps.threads.announce(sessionId, problem),
    onNewThread: (run) => deps.threads.markNewThread(run),
    appServers: stores.codexAppServers,
    onLeftoverStopped: (sessionId, pid) => deps.threads.markLeftoverStopped(sessionId, pid),
    allowedForSession: (sessionId, toolName) => stores.interactions.allowedForSession(sessionId, toolName),
    dataDir: runtime.dataDir,
    cairnVersion: runtime.cairnVersion,
    newInstanceId: () => crypto.randomUUID(),
    now: () => runtime.clock.now(),
    logger: runtime.logger,
    ...(runtime.codex?.bounds === undefined ? {} : { bounds: runtime.codex.bounds }),
    warm: {
      ...(runtime.codex?.idleMs === undefined ? {} : { idleMs: runtime.codex.idleMs }),
      ...(runtime.codex?.maxWarm === undefined ? {} : { maxWarm: runtime.codex.maxWarm }),
    },
    goalOf(sessionId, turnId) {
      const goalId = stores.turns.goalOf(sessionId, turnId);
      const goal = goalId === null ? null : stores.goals.get(goalId);
      return goal === null || goal.cleared
        ? null
        : { goalId: goal.goalId, objective: goal.objective, tokenBudget: goal.tokenBudget };
    },
    hasGoal: (sessionId) => stores.goals.current(sessionId) !== null,
    commands: deps.commands,
    isDelegation: (sessionId, turnId) => stores.turns.getTurn(sessionId, turnId)?.origin === 'delegation',
    onContextMeter: (sessionId, meter) => deps.context.noteMeter(sessionId, meter),
    onQuarantine: (sessionId, quarantine) => bus.publish({ kind: 'codex.quarantine.changed', sessionId, quarantine }),
    onContextCompacted: (run) => deps.compaction.recordNative(run),
    onGoalUpdate(sessionId, goalId, update) {
      const goal = stores.goals.current(sessionId);
      if (goal?.goalId !== goalId) return;
      const changes = goalChangesFor(goal, update);
      if (changes !== null) deps.goals.get().change(goal, changes);
    },
  });
}

/** Keeps Codex in step with what the person does in Cairn: a stopped turn and a cleared goal. */
export function followCodexSessions(
  bus: EventBus,
  stores: Stores,
  connections: ConnectionService,
  codex: CodexBackend,
): void {
  // A Codex turn stopped while Codex waited for an approval or answer: its app-server is ended now.
  bus.subscribe((event) => {
    if (event.kind === 'turn.changed' && event.turn.status === 'cancelled')
      void codex.releaseWaiting(event.turn.sessionId);
  });
  // A Codex session's goal cleared in Cairn: its thread goal is cleared too.
  bus.subscribe((event) => {
    if (event.kind !== 'goal.changed' || !event.goal.cleared) return;
    const session = stores.sessions.get(event.goal.sessionId);
    if (session !== null && connections.targets.isCodex(session.connectionId)) codex.clearGoal(event.goal.sessionId);
  });
}
