import type { ModelToolSpec, ProviderTarget } from '../providers/provider-types';
import type { HistoryMessage } from '../backends/agent-backend';
import type { ContextAssembler } from './context-assembler';
import { MESSAGE_OVERHEAD_TOKENS } from './context-assembler';
import { inputBudgetOf, modelWindowOf, type ModelWindow } from '../../../src-shared/model-windows';
import { countTokens, countValueTokens, TokenCalibration } from './token-count';
import type { ContextMeter } from '../../../src-shared/context-model';

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
}

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
}

/** What the model agent asks before each step: what to send so the request fits the window. */
export interface ModelContext {
  fit(request: FitRequest): FittedRequest;
  /** After a call: the provider's own count of the input, to calibrate the next estimate. */
  observe(sessionId: string, target: ProviderTarget, estimated: number, reported: number): void;
  windowOf(connectionId: string, target: Pick<ProviderTarget, 'providerType' | 'modelId'>): ModelWindow;
  /** Before a run's first step: learns the window the model's server reports, so `fit` can use it. */
  prepare?(connectionId: string, target: ProviderTarget, signal: AbortSignal): Promise<void>;
}

export function createModelContext(deps: ModelContextDeps): ModelContext {
  const calibration = new TokenCalibration();
  const windowOf: ModelContext['windowOf'] = (connectionId, target) =>
    modelWindowOf(target.providerType, target.modelId, {
      override: deps.overrideOf(connectionId, target.modelId),
      reportedContextLength: deps.reportedOf?.(connectionId, target.modelId) ?? null,
    });
  return {
    windowOf,
    async prepare(connectionId, target, signal) {
      await deps.askReported?.(connectionId, target, signal);
    },
    fit(request) {
      const window = windowOf(request.connectionId, request.target);
      const factor = calibration.factorFor(request.sessionId, request.target.providerType);
      const system = Math.ceil((countTokens(request.system) + MESSAGE_OVERHEAD_TOKENS) * factor);
      const tools = Math.ceil(countValueTokens(request.tools) * factor);
      const input = inputBudgetOf(window);
      const budget = Math.max(0, Math.floor(input * (1 - SAFETY_MARGIN)) - system - tools);
      const assembled = deps.assembler.assemble({ sessionId: request.sessionId, turnId: request.turnId, turnText: request.turnText, budget, factor });
      const estimatedInputTokens = system + tools + assembled.tokens;
      const meter: ContextMeter = {
        used: estimatedInputTokens,
        contextWindow: window.contextWindow,
        outputReserve: window.outputReserve,
        windowSource: window.source,
        breakdown: { system: system + tools, summary: 0, messages: assembled.tokens - assembled.toolTokens, toolOutput: assembled.toolTokens },
        trimmed: assembled.trimmed,
        modelId: request.target.modelId,
      };
      deps.onMeter?.(request.sessionId, meter);
      return { history: assembled.history, estimatedInputTokens: Math.round(estimatedInputTokens / factor), meter };
    },
    observe(sessionId, target, estimated, reported) {
      calibration.observe(sessionId, target.providerType, estimated, reported);
    },
  };
}
