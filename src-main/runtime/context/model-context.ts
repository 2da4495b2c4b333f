import type { ModelToolSpec, ProviderTarget } from '../connections/providers/provider-types';
import type { HistoryMessage } from '../contract/agent-backend';
import type { ContextAssembler } from './context-assembler';
import { MESSAGE_OVERHEAD_TOKENS } from './context-assembler';
import { inputBudgetOf, modelWindowOf, type ModelWindow } from '../../../src-shared/model-windows';
import { countTokens, countValueTokens, TokenCalibration } from './token-count';
import type { ContextMeter } from '../../../src-shared/context-model';
import type { SummaryRecord } from '../../../src-shared/compaction-model';
import { contextBlockOf, type GoalPins } from './summary-block';
import { RecentMap } from '../ports/recent-map';

/** Kept free on top of the reserve for the answer: our count is an estimate. */
const SAFETY_MARGIN = 0.05;

export interface FitRequest {
  readonly sessionId: string;
  readonly connectionId: string;
  readonly turnId: string;
  readonly turnText: string;
  readonly target: ProviderTarget;
  readonly system: string;
  readonly tools: readonly ModelToolSpec[];
}

export interface FittedRequest {
  readonly history: HistoryMessage[];
  /** What we expect the provider to count as this request's input tokens. */
  readonly estimatedInputTokens: number;
  readonly meter: ContextMeter;
  /** The summary of older turns (and what a goal always keeps), for the system prompt; null when nothing is summarised. */
  readonly contextBlock: string | null;
  /** Set when the request reaches the compaction threshold (or older turns were left out): summarise before sending. */
  readonly compaction: CompactionNeed | null;
}

export interface CompactionNeed {
  /** Input tokens one request may carry. */
  readonly inputBudget: number;
  /** Tokens of the newest messages that stay verbatim after compaction. */
  readonly keepTokens: number;
}

/** Sessions whose latest request `remeasure` can fit again (far more than run at once). */
export const FITS_KEPT = 100;

/** After compaction the recent turns verbatim take about this share of the input budget. */
const KEEP_SHARE = 0.3;

export interface ModelContextDeps {
  readonly assembler: ContextAssembler;
  /** The person's window for a connection's model, if they set one in Settings. */
  readonly overrideOf: (connectionId: string, modelId: string) => Omit<ModelWindow, 'source'> | null;
  /** The window the model's server reports (Ollama's `context_length`), when known. */
  readonly reportedOf?: (connectionId: string, modelId: string) => number | null;
  /** Asks the model's server for its window, if it reports one (once per connection revision). */
  readonly askReported?: (connectionId: string, target: ProviderTarget, signal: AbortSignal) => Promise<void>;
  /** Told each time a session's request was fitted (the header's meter follows it). */
  readonly onMeter?: (sessionId: string, meter: ContextMeter) => void;
  /** The session's newest summary (compaction), if any. */
  readonly summaryOf?: (sessionId: string) => SummaryRecord | null;
  /** What a session's goal keeps in every request once older turns are summarised. */
  readonly goalPinsOf?: (sessionId: string) => GoalPins | null;
  /** The share of the context window at which older turns are summarised (Settings). */
  readonly compactionThreshold?: () => number;
}

/** What the model agent asks before each step: what to send so the request fits the window. */
export interface ModelContext {
  fit(request: FitRequest): FittedRequest;
  /** After a call: the provider's own count of the input, to calibrate the next estimate. */
  observe(sessionId: string, target: ProviderTarget, estimated: number, reported: number): void;
  windowOf(connectionId: string, target: Pick<ProviderTarget, 'providerType' | 'modelId'>): ModelWindow;
  /** Before a run's first step: learns the window the model's server reports, so `fit` can use it. */
  prepare?(connectionId: string, target: ProviderTarget, signal: AbortSignal): Promise<void>;
  /** Measures a session's latest request again (after a compaction), so its meter follows. */
  remeasure(sessionId: string): void;
}

export function createModelContext(deps: ModelContextDeps): ModelContext {
  const calibration = new TokenCalibration();
  const windowOf: ModelContext['windowOf'] = (connectionId, target) =>
    modelWindowOf(target.providerType, target.modelId, {
      override: deps.overrideOf(connectionId, target.modelId),
      reportedContextLength: deps.reportedOf?.(connectionId, target.modelId) ?? null,
    });
  /**
   * The latest request fitted per session (what `remeasure` fits again after a compaction), for the
   * sessions fitted most recently: each holds a system prompt and tool list, and a host open for days
   * fits thousands of sessions (child agents). A session forgotten is measured again at its next step.
   */
  const latest = new RecentMap<string, FitRequest>(FITS_KEPT);
  return {
    windowOf,
    async prepare(connectionId, target, signal) {
      await deps.askReported?.(connectionId, target, signal);
    },
    remeasure(sessionId) {
      const request = latest.get(sessionId);
      if (request !== undefined) this.fit(request);
    },
    fit(request) {
      latest.set(request.sessionId, request);
      const window = windowOf(request.connectionId, request.target);
      const factor = calibration.factorFor(request.sessionId, request.target.providerType);
      const system = Math.ceil((countTokens(request.system) + MESSAGE_OVERHEAD_TOKENS) * factor);
      const tools = Math.ceil(countValueTokens(request.tools) * factor);
      const input = inputBudgetOf(window);
      const summary = deps.summaryOf?.(request.sessionId) ?? null;
      const contextBlock =
        summary === null ? null : contextBlockOf(summary, deps.goalPinsOf?.(request.sessionId) ?? null);
      const summaryTokens = contextBlock === null ? 0 : Math.ceil((countTokens(contextBlock) + 2) * factor);
      const budget = Math.max(0, Math.floor(input * (1 - SAFETY_MARGIN)) - system - tools - summaryTokens);
      const assembled = deps.assembler.assemble({
        sessionId: request.sessionId,
        turnId: request.turnId,
        turnText: request.turnText,
        budget,
        factor,
        ...(summary === null ? {} : { afterPosition: summary.lastPosition }),
      });
      const estimatedInputTokens = system + tools + summaryTokens + assembled.tokens;
      const threshold = deps.compactionThreshold?.() ?? 1;
      const compaction =
        assembled.trimmed || estimatedInputTokens > threshold * window.contextWindow
          ? { inputBudget: Math.floor(input * (1 - SAFETY_MARGIN)), keepTokens: Math.floor(input * KEEP_SHARE) }
          : null;
      const meter: ContextMeter = {
        used: estimatedInputTokens,
        contextWindow: window.contextWindow,
        outputReserve: window.outputReserve,
        windowSource: window.source,
        breakdown: {
          system: system + tools,
          summary: summaryTokens,
          messages: assembled.tokens - assembled.toolTokens,
          toolOutput: assembled.toolTokens,
        },
        trimmed: assembled.trimmed,
        modelId: request.target.modelId,
      };
      deps.onMeter?.(request.sessionId, meter);
      return {
        history: assembled.history,
        estimatedInputTokens: Math.round(estimatedInputTokens / factor),
        meter,
        contextBlock,
        compaction,
      };
    },
    observe(sessionId, target, estimated, reported) {
      calibration.observe(sessionId, target.providerType, estimated, reported);
    },
  };
}
