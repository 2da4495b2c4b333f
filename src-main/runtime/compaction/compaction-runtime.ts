import type { CompactionSettings, SummaryRecord } from '../../../src-shared/compaction-model';
import { fail, ok, type Outcome } from '../../../src-shared/errors';
import { DEFAULT_MODEL_WINDOW, inputBudgetOf } from '../../../src-shared/model-windows';
import type { Stores } from '../../storage/stores';
import type { AgentBackend, AgentEvent, AgentRunInput } from '../contract/agent-backend';
import { AgentBackendError } from '../contract/agent-backend';
import type { RevealToolOutput } from '../context/history-items';
import type { CompactionNeed, ModelContext } from '../context/model-context';
import type { EventBus } from '../ports/event-bus';
import type { AdmissionGate } from '../lifecycle/admission-gate';
import type { Clock, Ids } from '../ports/ports';
import type { ModelStepEvent, ModelStepRequest, ModelUsage, ProviderTarget } from '../connections/providers';
import { appendSummaryCard, Compactor, type CompactOutcome } from './compactor';
import { modelSummariser, scriptedSummariser, type Summariser } from './summarisers';
import type { GoalPins } from '../context/summary-block';
import { COMPACTION_SETTINGS_KEY, compactionSettingsOf, goalPinsOf } from '../context/stored-summaries';

export interface CompactionRuntimeDeps {
  readonly stores: Stores;
  readonly bus: EventBus;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly admission: AdmissionGate;
  readonly reveal: RevealToolOutput;
  readonly context: () => ModelContext;
  resolveTarget(connectionId: string, model: string | null): ProviderTarget | { error: string };
  streamStep(request: ModelStepRequest): AsyncIterable<ModelStepEvent>;
  costOf(target: ProviderTarget, usage: ModelUsage): { usd: number } | null;
  /** Connections whose agent is not a model Cairn calls (the Offline demo, test backends): summarised without a model. */
  readonly scripted: (connectionId: string) => boolean;
  /** A native agent's own compaction (Codex), when the session's connection is one; null otherwise. */
  readonly nativeCompaction?: (input: AgentRunInput, signal: AbortSignal) => AsyncIterable<AgentEvent> | null;
}

/** The compaction domain as the runtime composes it. */
export interface CompactionRuntime {
  /** Runs the turns "Compact now" (`compact-now.ts`) starts. */
  readonly backend: AgentBackend;
  /** For the model agent: summarises older turns in the run that needs it. */
  compactInRun(request: {
    sessionId: string;
    turnId: string;
    runId: string;
    target: ProviderTarget;
    need: CompactionNeed;
    signal: AbortSignal;
  }): Promise<CompactOutcome>;
  latest(sessionId: string): SummaryRecord | null;
  list(sessionId: string): SummaryRecord[];
  /** A native agent (Codex) compacted its own context in this run: a summary record without text, and its card. */
  recordNative(run: { sessionId: string; turnId: string; runId: string }): void;
  goalPinsOf(sessionId: string): GoalPins | null;
  settings(): CompactionSettings;
  setThreshold(
    threshold: number,
    expectedRevision: number | undefined,
  ): Outcome<CompactionSettings, 'revision_conflict'>;
}

export function createCompactionRuntime(deps: CompactionRuntimeDeps): CompactionRuntime {
  const { stores } = deps;
  const compactor = new Compactor({ ...deps, reveal: deps.reveal });
  const settings = (): CompactionSettings => compactionSettingsOf(stores);

  async function* runCompaction(input: AgentRunInput, signal: AbortSignal): AsyncGenerator<AgentEvent> {
    const native = deps.nativeCompaction?.(input, signal) ?? null;
    if (native !== null) {
      yield* native;
      return;
    }
    let summariser: Summariser;
    let inputBudget: number;
    if (deps.scripted(input.connectionId)) {
      summariser = scriptedSummariser;
      inputBudget = inputBudgetOf(DEFAULT_MODEL_WINDOW);
    } else {
      const target = deps.resolveTarget(input.connectionId, input.model);
      if ('error' in target)
        throw new AgentBackendError('connection_unavailable', target.error, 'connection_unavailable');
      summariser = modelSummariser({ ...deps, target });
      inputBudget = Math.floor(inputBudgetOf(deps.context().windowOf(input.connectionId, target)) * 0.95);
    }
    yield {
      type: 'provider_wait',
      progress: { phase: 'waiting_for_provider', attempt: 1, maxAttempts: 1, since: deps.clock.now() },
    };
    let outcome: CompactOutcome;
    try {
      outcome = await compactor.compact({
        sessionId: input.sessionId,
        turnId: input.turnId,
        runId: input.runId,
        inputBudget,
        keepTokens: 0,
        summariser,
        signal,
      });
    } catch (error) {
      if (signal.aborted) return;
      throw new AgentBackendError(
        'compaction_failed',
        `Cairn could not summarise the conversation (${error instanceof Error ? error.message : String(error)}). Nothing was lost; retry to try again.`,
        'compaction_failed',
      );
    }
    yield { type: 'provider_wait', progress: null };
    for (const usage of outcome.kind === 'nothing' ? [] : outcome.usage) yield { type: 'usage', ...usage };
    if (outcome.kind === 'compacted') deps.context().remeasure(input.sessionId);
  }

  return {
    backend: { id: 'compaction', run: runCompaction },
    compactInRun(request) {
      return compactor.compact({
        sessionId: request.sessionId,
        turnId: request.turnId,
        runId: request.runId,
        inputBudget: request.need.inputBudget,
        keepTokens: request.need.keepTokens,
        summariser: modelSummariser({ ...deps, target: request.target }),
        signal: request.signal,
      });
    },
    latest: (sessionId) => stores.summaries.latest(sessionId),
    list: (sessionId) => stores.summaries.list(sessionId),
    recordNative: (run) => recordNativeCompaction(deps, run),
    goalPinsOf: (sessionId) => goalPinsOf(stores, sessionId),
    settings,
    setThreshold(threshold, expectedRevision) {
      return stores.transaction(() => {
        const current = settings();
        if (expectedRevision !== undefined && expectedRevision !== current.revision) {
          return fail('revision_conflict', 'The compaction setting was changed elsewhere. Reload it and try again.');
        }
        const next = { revision: current.revision + 1, threshold };
        stores.settings.set(COMPACTION_SETTINGS_KEY, next);
        return ok(next);
      });
    },
  };
}

/** A native agent (Codex) compacted its own context in this run: a summary record without text, and its card. */
function recordNativeCompaction(
  deps: CompactionRuntimeDeps,
  run: { sessionId: string; turnId: string; runId: string },
): void {
  const { stores } = deps;
  const item = stores.transaction(() => {
    const newest = stores.transcript.page(run.sessionId, null, 1)[0];
    if (newest === undefined) return null;
    const previous = stores.summaries.latest(run.sessionId);
    const first = previous === null ? (stores.transcript.page(run.sessionId, 1, 1)[0] ?? newest) : null;
    const now = deps.clock.now();
    const summary = stores.summaries.insert({
      summaryId: deps.ids.next('summary'),
      sessionId: run.sessionId,
      firstPosition: previous?.firstPosition ?? Math.min(first?.position ?? newest.position, newest.position),
      lastPosition: newest.position,
      firstItemId: previous?.firstItemId ?? first?.itemId ?? newest.itemId,
      firstTurn: 1,
      lastTurn: Math.max(1, stores.summaries.userMessagesThrough(run.sessionId, newest.position)),
      text: null,
      previousSummaryId: previous?.summaryId ?? null,
      turnId: run.turnId,
      runId: run.runId,
      inputTokens: 0,
      outputTokens: 0,
      summaryTokens: 0,
      createdAt: now,
    });
    return appendSummaryCard(stores, deps.ids, summary, 'codex', now);
  });
  if (item !== null) deps.bus.publish({ kind: 'transcript.appended', item });
}
