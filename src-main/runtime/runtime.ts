import type { Stores } from '../storage/stores';
import type { AgentBackend } from './backends/agent-backend';
import { EventBus } from './event-bus';
import type { Clock, Ids, Logger } from './ports';
import { recoverInterruptedRuns, type RecoveryReport } from './recovery';
import { RunExecutor } from './run-executor';
import { SessionService } from './session-service';
import { TurnService } from './turn-service';

export interface RuntimeDeps {
  readonly stores: Stores;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly logger: Logger;
  readonly hostEpoch: string;
  /** Backends by connection id; sessions name theirs. */
  readonly backends: ReadonlyMap<string, AgentBackend>;
  readonly defaultConnectionId: string;
  readonly flushMs?: number;
}

export interface Runtime {
  readonly bus: EventBus;
  readonly sessions: SessionService;
  readonly turns: TurnService;
  readonly executor: RunExecutor;
  /** Closes what the previous host left open and restarts queued work; call before serving. */
  recover(): RecoveryReport;
  /** Ends live runs as interrupted (resumable) and waits briefly for their backends to let go. */
  shutdown(graceMs: number): Promise<void>;
}

export const APP_SHUTDOWN = 'app_shutdown';

export function createRuntime(deps: RuntimeDeps): Runtime {
  const bus = new EventBus(deps.hostEpoch, deps.logger);
  let turns: TurnService | null = null;
  const executor = new RunExecutor({
    ...deps,
    bus,
    backendFor(connectionId) {
      return deps.backends.get(connectionId) ?? null;
    },
    onRunEnded(run, status) {
      if (status === 'completed' || status === 'failed') turns?.drainQueue(run.sessionId);
    },
  });
  turns = new TurnService({ ...deps, bus, executor });
  const sessions = new SessionService({ ...deps, bus, turns, defaultConnectionId: deps.defaultConnectionId });
  const turnService = turns;
  return {
    bus,
    sessions,
    turns: turnService,
    executor,
    recover() {
      const report = recoverInterruptedRuns(deps.stores, deps.clock, deps.logger);
      for (const sessionId of deps.stores.queue.sessionsWithQueued()) turnService.drainQueue(sessionId);
      return report;
    },
    shutdown: (graceMs) => executor.endAll({ status: 'interrupted', terminalReason: APP_SHUTDOWN }, graceMs),
  };
}
