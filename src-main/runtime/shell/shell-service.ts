import { fail, ok, type Outcome } from '../../../src-shared/errors';
import type { ShellRunRecord } from '../../../src-shared/shell-run-model';
import type { Stores } from '../../storage/stores';
import type { EventBus } from '../event-bus';
import type { Clock, Ids, Logger } from '../ports';
import type { RunShellToolOptions } from '../workspace/run-shell-tool';
import { createShellRunner, recoverOrphanedShellRuns, type ShellRunner, type ShellRunRecorder } from './shell-runner';

export interface ShellServiceDeps {
  readonly stores: Stores;
  readonly bus: EventBus;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly logger: Logger;
}

/**
 * The host's shell runs: one runner for every session, its records kept durably and every change
 * published (status as `shell.changed`, live output as `shell.output`), listing, and Stop per command.
 */
export class ShellService {
  readonly runner: ShellRunner;

  constructor(private readonly deps: ShellServiceDeps) {
    const { stores, bus } = deps;
    const publish = (record: ShellRunRecord) => {
      bus.publish({ kind: 'shell.changed', shellRun: record });
      return record;
    };
    // The runner writes through this; every status change is announced after it is stored.
    const store: ShellRunRecorder = {
      insert: (run) => publish(stores.shellRuns.insert(run)),
      markRunning: (shellRunId, pid) => publish(stores.shellRuns.markRunning(shellRunId, pid)),
      recordOutput: (shellRunId, output) => stores.shellRuns.recordOutput(shellRunId, output),
      finish: (shellRunId, ending) => publish(stores.shellRuns.finish(shellRunId, ending)),
    };
    this.runner = createShellRunner({ store, clock: deps.clock, newShellRunId: () => deps.ids.next('shell_run'), logger: deps.logger });
  }

  /** Marks runs a dead host left behind as orphaned; call before serving. */
  recover(): number {
    return recoverOrphanedShellRuns(this.deps.stores.shellRuns, this.deps.clock.now()).length;
  }

  /** What run_shell needs: the runner, and live output forwarded to subscribers. */
  toolOptions(): Omit<RunShellToolOptions, 'root'> {
    return {
      runner: this.runner,
      onOutput: (chunk, context) =>
        this.deps.bus.publish({ kind: 'shell.output', sessionId: context.sessionId, shellRunId: chunk.shellRunId, stream: chunk.stream, text: chunk.text }),
    };
  }

  list(sessionId: string, limit: number): Outcome<{ shellRuns: ShellRunRecord[] }> {
    if (this.deps.stores.sessions.get(sessionId) === null) return fail('not_found', 'That session does not exist.');
    return ok({ shellRuns: this.deps.stores.shellRuns.listBySession(sessionId, { limit }) });
  }

  get(shellRunId: string): Outcome<{ shellRun: ShellRunRecord }> {
    const shellRun = this.deps.stores.shellRuns.get(shellRunId);
    return shellRun === null ? fail('not_found', 'That command does not exist.') : ok({ shellRun });
  }

  async kill(shellRunId: string): Promise<Outcome<{ shellRun: ShellRunRecord; killed: boolean }>> {
    if (this.deps.stores.shellRuns.get(shellRunId) === null) return fail('not_found', 'That command does not exist.');
    const killed = this.runner.kill(shellRunId);
    const shellRun = this.deps.stores.shellRuns.get(shellRunId);
    if (shellRun === null) return fail('not_found', 'That command does not exist.');
    return ok({ shellRun, killed });
  }

  shutdown(): Promise<void> {
    return this.runner.killAll();
  }
}
