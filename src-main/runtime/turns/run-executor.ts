import type { ChangeEventBody } from '../../../src-shared/events';
import type { RunKind, RunStatus, TurnOrigin } from '../../../src-shared/model';
import type { LiveRunProgress, RunProgress } from '../../../src-shared/run-progress';
import type { Stores } from '../../storage/stores';
import type { AgentBackend, AgentEvent, AgentRunInput, HistoryMessage } from '../contract/agent-backend';
import { AgentBackendError } from '../contract/agent-backend';
import type { EventBus } from '../ports/event-bus';
import type { Clock, Ids, Logger } from '../ports/ports';
import type { AdmissionGate } from '../lifecycle/admission-gate';
import type { StorageDamage } from '../storage-faults/storage-damage';
import { RunRecorder } from './run-recorder';
import { endRun, suspendRun, turnAndSessionEvents, type RunEnding, type RunIdentity } from './run-lifecycle';
import type { TurnHooks } from './turn-hooks';
import { runHistory } from './run-history';
import {
  isStorageFailure,
  storageFailureEnding,
  storageFailureNotice,
  type StorageFailureEnding,
} from '../storage-faults/storage-failure-ending';

export interface RunExecutorDeps {
  readonly stores: Stores;
  readonly bus: EventBus;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly logger: Logger;
  /** Closed once shutdown began: a run launched after that never reaches its backend. */
  readonly admission: AdmissionGate;
  /** Told of every failed write, so database damage stops new work and says how to salvage. */
  readonly storageDamage?: StorageDamage;
  /** The backend of a connection, or null when the session's connection no longer exists. */
  readonly backendFor: (connectionId: string, origin?: TurnOrigin) => AgentBackend | null;
  readonly flushMs?: number;
  /** The unmasked output of a tool result whose transcript copy is masked (a secret answer). */
  readonly revealToolOutput?: (data: Readonly<Record<string, unknown>>) => unknown;
  /**
   * Bookkeeping that must commit with a run's end (a goal's turn count), inside the transaction that
   * ends it; returns the events to publish after the commit.
   */
  readonly accountRunEnd?: (run: RunIdentity, status: RunStatus) => ChangeEventBody[];
  /** Called after a run has ended and its end is committed and published. */
  readonly onRunEnded: (run: RunIdentity, status: RunStatus) => void;
  /** How often the end of a run whose record could not be written is tried again; default 500 ms. */
  readonly storageRetryMs?: number;
  /** The person's hooks at the turn's edges (SessionStart, UserPromptSubmit, Stop); absent: none run. */
  readonly turnHooks?: TurnHooks;
}

interface ActiveRun {
  readonly identity: RunIdentity;
  readonly recorder: RunRecorder;
  readonly controller: AbortController;
  settled: boolean;
  /** What it waits on right now, for a client that reads the session's snapshot. */
  progress: RunProgress | null;
  /** Resolves when the backend's stream has been let go of (it may outlive the run's end). */
  readonly released: Promise<void>;
}

/** The terminal reason of runs the host ended because it was shutting down. */
export const APP_SHUTDOWN = 'app_shutdown';

/**
 * Runs turns: one live run per session at most. It reads the backend's stream, records it through a
 * RunRecorder, enforces the step budget, and ends each run exactly once. Ending a run is a
 * synchronous commit, so Stop never waits for the backend.
 */
export class RunExecutor {
  private readonly active = new Map<string, ActiveRun>();
  /** Runs stopped by a failed write, waiting for the record to take their end. */
  private readonly deferredEnds = new Map<
    string,
    { identity: RunIdentity; ending: StorageFailureEnding; cancel: () => void }
  >();

  constructor(private readonly deps: RunExecutorDeps) {}

  /** The live run of a session, if one is in memory. */
  activeRunOf(sessionId: string): RunIdentity | null {
    return this.active.get(sessionId)?.identity ?? null;
  }

  /** What a session's live run waits on right now, if anything. */
  progressOf(sessionId: string): LiveRunProgress | null {
    const active = this.active.get(sessionId);
    if (active === undefined || active.progress === null) return null;
    return { turnId: active.identity.turnId, runId: active.identity.runId, progress: active.progress };
  }

  get activeCount(): number {
    return this.active.size;
  }

  /** Starts reading the backend for a run that is already committed as `running`. */
  launch(
    run: RunIdentity & { kind: RunKind },
    resume: AgentRunInput['resume'],
    approvedToolCall: AgentRunInput['approvedToolCall'] = null,
  ): void {
    const { stores } = this.deps;
    const session = stores.sessions.get(run.sessionId);
    const turn = stores.turns.getTurn(run.sessionId, run.turnId);
    if (session === null || turn === null) throw new Error(`Run ${run.runId} has no session or turn`);
    const controller = new AbortController();
    const recorder = new RunRecorder(this.deps, run, session.connectionId, this.deps.flushMs, (error) =>
      this.recordingFailed(active, error),
    );
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const active: ActiveRun = { identity: run, recorder, controller, settled: false, progress: null, released };
    this.active.set(run.sessionId, active);
    const input: AgentRunInput = {
      sessionId: run.sessionId,
      turnId: run.turnId,
      runId: run.runId,
      runKind: run.kind,
      text: turn.text,
      connectionId: session.connectionId,
      model: session.model,
      maxSteps: turn.maxSteps,
      history: this.history(run.sessionId, run.turnId),
      resume,
      approvedToolCall,
    };
    if (!this.deps.admission.isOpen) {
      // A caller admitted work past the closed gate: a bug. The run ends before its backend is asked.
      this.deps.logger.error('A run was launched while the host shuts down; it did not start', { runId: run.runId });
      release();
      this.finish(active, { status: 'interrupted', terminalReason: APP_SHUTDOWN });
      return;
    }
    const backend = this.deps.backendFor(session.connectionId, turn.origin);
    if (backend === null) {
      release();
      this.finish(active, {
        status: 'failed',
        terminalReason: 'connection_unavailable',
        errorCode: 'connection_unavailable',
        errorMessage: `This session's connection (${session.connectionId}) no longer exists. Pick another connection for it.`,
      });
      return;
    }
    void this.consume(active, backend, input, turn.maxSteps).finally(release);
  }

  /**
   * Ends the session's live run now: buffered output is committed, then the terminal status, in one
   * transaction. Returns false when there is no live run (or it had already ended), or when the
   * record could not be written (the run then ends as a storage failure once it can be).
   */
  end(sessionId: string, ending: RunEnding, alsoInTransaction?: () => ChangeEventBody[]): boolean {
    const active = this.active.get(sessionId);
    if (active === undefined || active.settled) return false;
    return this.finish(active, ending, alsoInTransaction);
  }

  /** Ends every live run (host shutdown) and waits, up to `graceMs`, for their streams to let go. */
  async endAll(ending: RunEnding, graceMs: number): Promise<void> {
    // Ends waiting for a writable record get one last try; a restart closes what still fails.
    for (const [runId, deferred] of [...this.deferredEnds]) {
      deferred.cancel();
      this.deferredEnds.delete(runId);
      this.writeDeferredEnd(deferred.identity, deferred.ending, false);
    }
    const released = [...this.active.values()].map((active) => {
      if (!active.settled) this.finish(active, ending);
      return active.released;
    });
    await Promise.race([Promise.all(released), new Promise((resolve) => setTimeout(resolve, graceMs))]);
  }

  private async consume(active: ActiveRun, backend: AgentBackend, runInput: AgentRunInput, maxSteps: number) {
    const { recorder, controller } = active;
    let input = runInput;
    let steps = 0;
    try {
      const before = await this.deps.turnHooks?.beforeRun(input, recorder, controller.signal);
      if (before !== undefined && 'ending' in before) return void this.finish(active, before.ending);
      if (before?.contextAdded === true)
        input = { ...input, text: before.text, history: this.history(input.sessionId, input.turnId) };
      for (let continuations = 0; ; continuations += 1) {
        for await (const event of backend.run(input, controller.signal)) {
          if (active.settled) break;
          steps = this.take(active, event, steps, maxSteps);
        }
        if (active.settled) break;
        const next = await this.deps.turnHooks?.atTurnEnd(input, continuations, recorder, controller.signal);
        if (next == null || active.settled) break;
        if ('ending' in next) return void this.finish(active, next.ending);
        const history = this.history(input.sessionId, input.turnId);
        input = { ...input, text: next.continueWith, history, approvedToolCall: null, resume: null };
      }
      if (!active.settled) this.finish(active, { status: 'completed', terminalReason: 'end_turn' });
    } catch (error) {
      this.consumeFailed(active, runInput, error);
    }
  }

  /** Records one event of the backend's stream; returns the steps taken so far. */
  private take(active: ActiveRun, event: AgentEvent, steps: number, maxSteps: number): number {
    const { recorder } = active;
    switch (event.type) {
      case 'step_started':
        steps += 1;
        if (steps > maxSteps) {
          this.finish(active, { status: 'completed', terminalReason: 'max_steps' });
          break;
        }
        recorder.record({ kind: 'step_started', payload: { step: steps } });
        break;
      case 'provider_wait':
        this.reportWait(active, event.progress);
        break;
      case 'text_delta':
        recorder.appendText('assistant_message', event.text);
        break;
      case 'reasoning_delta':
        recorder.appendText('reasoning', event.text);
        break;
      case 'tool_call':
        // Durable before the tool runs: the backend waits for the next pull to execute it.
        recorder.recordItem('tool_call', event.toolName, {
          toolCallId: event.toolCallId,
          toolName: event.toolName,
          input: event.input,
        });
        recorder.flush();
        break;
      case 'tool_result':
        recorder.recordItem('tool_result', event.toolName, {
          toolCallId: event.toolCallId,
          toolName: event.toolName,
          output: event.output,
          isError: event.isError,
        });
        recorder.flush();
        this.deps.turnHooks?.toolReported(active.identity, recorder, event);
        break;
      case 'interaction_requested':
        this.suspend(active, event);
        break;
      case 'usage': {
        const { type: _type, ...usage } = event;
        recorder.recordUsage(usage);
        break;
      }
      case 'hook_run':
        recorder.recordHookRun(event.report, event);
        break;
    }
    return steps;
  }

  private consumeFailed(active: ActiveRun, input: AgentRunInput, error: unknown): void {
    if (active.settled) {
      this.deps.logger.warn('A stopped run raised after its end; ignored', {
        runId: input.runId,
        error: String(error),
      });
      return;
    }
    if (isStorageFailure(error)) {
      this.recordingFailed(active, error);
    } else if (error instanceof AgentBackendError) {
      this.finish(active, {
        status: 'failed',
        terminalReason: error.failureClass,
        errorCode: error.code,
        errorMessage: error.message,
      });
    } else {
      this.deps.logger.error('A backend failed unexpectedly', { runId: input.runId, error: String(error) });
      this.finish(active, {
        status: 'failed',
        terminalReason: 'internal_failure',
        errorCode: 'internal_failure',
        errorMessage: 'The agent stopped because of an internal error. The details are in the host log.',
      });
    }
  }

  /** Says live what the run waits on; a retry also goes into the ledger, so the record shows it. */
  private reportWait(active: ActiveRun, progress: RunProgress | null): void {
    const { sessionId, turnId, runId } = active.identity;
    active.progress = progress;
    if (progress?.phase === 'retrying') {
      const { attempt, maxAttempts, reason, resumeAt } = progress;
      active.recorder.record({ kind: 'provider_retry', payload: { attempt, maxAttempts, reason, resumeAt } });
    }
    this.deps.bus.publish({ kind: 'run.progress', sessionId, turnId, runId, progress });
  }

  /** Ends a run in one transaction; false when the record could not be written (see recordingFailed). */
  private finish(active: ActiveRun, ending: RunEnding, alsoInTransaction?: () => ChangeEventBody[]): boolean {
    const { stores, bus } = this.deps;
    const { sessionId } = active.identity;
    active.settled = true;
    if (this.active.get(sessionId) === active) this.active.delete(sessionId);
    let published: ChangeEventBody[] = [];
    try {
      published = stores.transaction(() => {
        const events = active.recorder.commitPending();
        events.push(...(this.writeEnding(active.identity, ending) ?? []));
        if (alsoInTransaction !== undefined) events.push(...alsoInTransaction());
        return events;
      });
    } catch (error) {
      if (!isStorageFailure(error)) throw error;
      this.recordingFailed(active, error);
      return false;
    } finally {
      active.recorder.close();
      active.controller.abort();
    }
    for (const event of published) bus.publish(event);
    this.deps.onRunEnded(active.identity, ending.status);
    return true;
  }

  /**
   * Writes a run's end through the run lifecycle; must run inside the caller's transaction. Returns
   * the events to publish, or null when the run had already ended (a Stop wrote its own end).
   */
  private writeEnding(identity: RunIdentity, ending: RunEnding): ChangeEventBody[] | null {
    const { stores, clock } = this.deps;
    const events = endRun(stores, identity, ending, clock.now());
    if (events === null) return null;
    events.push(...turnAndSessionEvents(stores, identity.sessionId, identity.turnId));
    if (this.deps.accountRunEnd !== undefined) events.push(...this.deps.accountRunEnd(identity, ending.status));
    return events;
  }

  /**
   * The record could not be written (disk full, I/O error): the run stops now — its backend aborted,
   * its unsaved output dropped (it was never sent) — the person is told at once, and the run ends
   * `failed` with the storage failure class as soon as a write succeeds again (invariant 2).
   */
  private recordingFailed(active: ActiveRun, error: unknown): void {
    const { identity } = active;
    active.settled = true;
    if (this.active.get(identity.sessionId) === active) this.active.delete(identity.sessionId);
    active.recorder.close();
    active.controller.abort();
    if (this.deferredEnds.has(identity.runId)) return;
    const ending = storageFailureEnding(error);
    this.deps.storageDamage?.report(error);
    this.deps.logger.error('Could not record a run; it ends as soon as the record can be written again', {
      runId: identity.runId,
      error: String(error),
    });
    this.deps.bus.publish(storageFailureNotice(identity.sessionId, ending));
    this.deferEnd(identity, ending);
  }

  private deferEnd(identity: RunIdentity, ending: StorageFailureEnding): void {
    const cancel = this.deps.clock.setTimeout(() => {
      this.deferredEnds.delete(identity.runId);
      if (!this.writeDeferredEnd(identity, ending, true)) this.deferEnd(identity, ending);
    }, this.deps.storageRetryMs ?? 500);
    this.deferredEnds.set(identity.runId, { identity, ending, cancel });
  }

  /** One try at recording a deferred end; false when the record still cannot be written. */
  private writeDeferredEnd(identity: RunIdentity, ending: StorageFailureEnding, announce: boolean): boolean {
    const { stores, bus } = this.deps;
    let published: ChangeEventBody[] | null;
    try {
      // Settled meanwhile (a Stop wrote its own end): the lifecycle writes nothing more.
      published = stores.transaction(() => this.writeEnding(identity, ending));
    } catch (error) {
      if (isStorageFailure(error)) return false;
      this.deps.logger.error('Could not record the end of a run', { runId: identity.runId, error: String(error) });
      return true;
    }
    if (published === null) return true;
    for (const event of published) bus.publish(event);
    if (announce) this.deps.onRunEnded(identity, ending.status);
    return true;
  }

  /**
   * The run waits for the person: the tool call, the pending interaction and the `waiting` status are
   * committed together, and nothing of the run stays in memory. Not an end: the answer ends it.
   */
  private suspend(active: ActiveRun, event: Extract<AgentEvent, { type: 'interaction_requested' }>): void {
    const { stores, bus, clock, ids } = this.deps;
    const { sessionId, turnId, runId } = active.identity;
    active.settled = true;
    if (this.active.get(sessionId) === active) this.active.delete(sessionId);
    let published: ChangeEventBody[] = [];
    try {
      published = stores.transaction(() => {
        const events = active.recorder.commitPending();
        const now = clock.now();
        const interaction = stores.interactions.insert({
          interactionId: ids.next('interaction'),
          sessionId,
          turnId,
          runId,
          toolCallId: event.toolCallId,
          request: event.request,
          now,
        });
        const data = {
          toolCallId: event.toolCallId,
          toolName: event.toolName,
          input: event.input,
          interactionId: interaction.interactionId,
        };
        const item = stores.transcript.append(
          {
            sessionId,
            itemId: ids.next('item'),
            turnId,
            runId,
            kind: 'tool_call',
            text: event.toolName,
            state: 'final',
            data,
            now,
          },
          stores.sessions.reservePositions(sessionId, 1),
        );
        stores.ledger.append(runId, [{ kind: 'tool_call', payload: { itemId: item.itemId, ...data } }], now);
        suspendRun(stores, active.identity, { interactionId: interaction.interactionId, request: event.request }, now);
        const { answerSecretId: _secret, ...record } = interaction;
        events.push({ kind: 'transcript.appended', item }, { kind: 'interaction.changed', interaction: record });
        events.push(...turnAndSessionEvents(stores, sessionId, turnId));
        return events;
      });
    } catch (error) {
      if (!isStorageFailure(error)) throw error;
      this.recordingFailed(active, error);
      return;
    } finally {
      active.recorder.close();
      active.controller.abort();
    }
    for (const change of published) bus.publish(change);
    this.deps.turnHooks?.waiting(active.identity, event.request);
  }

  private history(sessionId: string, turnId: string): HistoryMessage[] {
    return runHistory(this.deps.stores.transcript, sessionId, turnId, this.deps.revealToolOutput);
  }
}
