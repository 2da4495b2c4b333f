import { fail, ok, type Outcome } from '../../../src-shared/errors';
import type { ShellRunRecord } from '../../../src-shared/shell-run-model';
import type { Stores } from '../../storage/stores';
import type { EventBus } from '../ports/event-bus';
import type { Clock, Ids, Logger } from '../ports/ports';
import type { RunShellToolOptions } from '../workspace/run-shell-tool';
import { runMarker } from './escaped-processes';
import {
  createOrphanStopper,
  ORPHAN_MESSAGES,
  orphanFate,
  orphanMessage,
  type OrphanFate,
  type OrphanStopper,
} from './orphan-recovery';
import { createAgentCommandLog, type AgentCommandLog } from './agent-commands';
import { createShellRunner, type ShellOutputChunk, type ShellRunner, type ShellRunRecorder } from './shell-runner';

export interface ShellServiceDeps {
  readonly stores: Stores;
  readonly bus: EventBus;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly logger: Logger;
  /** The data directory: it makes this host's run markers its own (escaped-processes.ts). */
  readonly dataDir: string;
  /** Between SIGTERM and SIGKILL for a left-over command; default 2000 ms. */
  readonly orphanGraceMs?: number;
  /** Secret-looking variables commands still get, by name (the host's `--pass-env`). */
  readonly commandEnvPassThrough?: readonly string[];
}

/** How many runs a dead host left behind, by what became of them. */
export type OrphanReport = Readonly<Record<OrphanFate, number>>;

/**
 * The host's shell runs: one runner for every session, its records kept durably and every change
 * published (status as `shell.changed`, live output as `shell.output`), listing, and Stop per command.
 */
export class ShellService {
  readonly runner: ShellRunner;
  /** Commands native agents (Codex) run themselves, kept as shell runs beside Cairn's own. */
  readonly agentCommands: AgentCommandLog;
  private readonly orphans: OrphanStopper;

  constructor(private readonly deps: ShellServiceDeps) {
    const { stores, bus } = deps;
    const publish = (record: ShellRunRecord) => {
      bus.publish({ kind: 'shell.changed', shellRun: record });
      return record;
    };
    // The runner writes through this; every status change is announced after it is stored.
    const store: ShellRunRecorder = {
      insert: (run) => publish(stores.shellRuns.insert(run)),
      markRunning: (shellRunId, pid, processStart) =>
        publish(stores.shellRuns.markRunning(shellRunId, pid, processStart)),
      recordOutput: (shellRunId, output) => stores.shellRuns.recordOutput(shellRunId, output),
      finish: (shellRunId, ending) => publish(stores.shellRuns.finish(shellRunId, ending)),
    };
    this.runner = createShellRunner({
      store,
      clock: deps.clock,
      newShellRunId: () => deps.ids.next('shell_run'),
      logger: deps.logger,
      passThrough: deps.commandEnvPassThrough ?? [],
      markerScope: deps.dataDir,
    });
    this.agentCommands = createAgentCommandLog({ ...deps, store: stores.shellRuns });
    this.orphans = createOrphanStopper({
      clock: deps.clock,
      logger: deps.logger,
      ...(deps.orphanGraceMs === undefined ? {} : { graceMs: deps.orphanGraceMs }),
    });
  }

  /**
   * Runs a dead host left behind become `orphaned`; a process group still running that is provably
   * the same process is stopped, and each record says what happened. Call before serving.
   */
  recover(): OrphanReport {
    const { stores, clock } = this.deps;
    const report: Record<OrphanFate, number> = { no_pid: 0, gone: 0, stop: 0, reused: 0, unproven: 0 };
    for (const { run, processStart } of stores.shellRuns.live()) {
      let fate = orphanFate(run.pid, processStart);
      if (fate === 'stop' && run.pid !== null) this.orphans.stop(run.pid, processStart);
      // Processes that left its group (setsid, a double fork) carry its marker: provably its own.
      if (this.orphans.stopMarked(runMarker(this.deps.dataDir, run.shellRunId))) fate = 'stop';
      stores.transaction(() => stores.shellRuns.markOrphaned(run.shellRunId, orphanMessage(fate), clock.now()));
      report[fate] += 1;
    }
    return report;
  }

  /** What run_shell needs: the runner, and live output forwarded to subscribers. */
  toolOptions(): Omit<RunShellToolOptions, 'root'> {
    return {
      runner: this.runner,
      onOutput: (chunk, context) => this.publishOutput(context.sessionId, chunk),
    };
  }

  /** Live output of a session's command, to subscribers (the transcript's terminal). */
  publishOutput(sessionId: string, chunk: ShellOutputChunk): void {
    this.deps.bus.publish({
      kind: 'shell.output',
      sessionId,
      shellRunId: chunk.shellRunId,
      stream: chunk.stream,
      text: chunk.text,
    });
  }

  list(sessionId: string, limit: number): Outcome<{ shellRuns: ShellRunRecord[] }, 'not_found'> {
    if (this.deps.stores.sessions.get(sessionId) === null) return fail('not_found', 'That session does not exist.');
    return ok({ shellRuns: this.deps.stores.shellRuns.listBySession(sessionId, { limit }) });
  }

  get(shellRunId: string): Outcome<{ shellRun: ShellRunRecord }, 'not_found'> {
    const shellRun = this.deps.stores.shellRuns.get(shellRunId);
    return shellRun === null ? fail('not_found', 'That command does not exist.') : ok({ shellRun });
  }

  async kill(shellRunId: string): Promise<Outcome<{ shellRun: ShellRunRecord; killed: boolean }, 'not_found'>> {
    const record = this.deps.stores.shellRuns.get(shellRunId);
    if (record === null) return fail('not_found', 'That command does not exist.');
    if (record.status === 'orphaned') return ok(this.killOrphan(record));
    const killed = this.runner.kill(shellRunId) || ((await this.agentCommands.stop(shellRunId)) ?? false);
    const shellRun = this.deps.stores.shellRuns.get(shellRunId);
    if (shellRun === null) return fail('not_found', 'That command does not exist.');
    return ok({ shellRun, killed });
  }

  shutdown(): Promise<void> {
    this.orphans.flush();
    return this.runner.killAll();
  }

  /** A command a dead host left running is stopped too, when it is provably still that command. */
  private killOrphan(record: ShellRunRecord): { shellRun: ShellRunRecord; killed: boolean } {
    const { stores, bus } = this.deps;
    const processStart = stores.shellRuns.processStart(record.shellRunId);
    const fate = orphanFate(record.pid, processStart);
    const marked = this.orphans.stopMarked(runMarker(this.deps.dataDir, record.shellRunId));
    if (fate === 'stop' && record.pid !== null) this.orphans.stop(record.pid, processStart);
    else if (!marked) return { shellRun: record, killed: false };
    const shellRun = stores.transaction(() =>
      stores.shellRuns.noteOrphan(record.shellRunId, ORPHAN_MESSAGES.stopped_by_you),
    );
    bus.publish({ kind: 'shell.changed', shellRun });
    return { shellRun, killed: true };
  }
}
