import type { RetryReason } from '../../../../src-shared/run-progress';
import type {
  ModelStepEvent,
  ModelStepRequest,
  ModelUsage,
  ProviderErrorClass,
  ProviderTarget,
} from '../../connections/providers';
import { ProviderError } from '../../connections/providers/provider-error';
import { systemPromptWith, type RunPreferences } from '../../conversations/chat-preferences';
import { runToolCall, type ToolHost } from '../../tools/tool-runner';
import { fireStepHooks } from '../../hooks/tool-hooks';
import type { AgentBackend, AgentEvent, AgentRunInput } from '../../contract/agent-backend';
import { AgentBackendError } from '../../contract/agent-backend';
import { continuingPartialAnswer } from './continue-answer';
import type { MemoryRecord } from '../../../../src-shared/memory-model';
import { withMemoryBrief } from '../../memory/memory-brief';
import { conversationFromHistory, type AttachmentLoader, type ConversationMessage } from './conversation';
import type { CompactionNeed, ModelContext } from '../../context/model-context';
import type { CompactOutcome } from '../../compaction/compactor';

export interface ModelAgentDeps {
  /** Where this session's runs go, or why they cannot. */
  resolveTarget(connectionId: string, model: string | null): ProviderTarget | { error: string };
  streamStep(request: ModelStepRequest): AsyncIterable<ModelStepEvent>;
  costOf(target: ProviderTarget, usage: ModelUsage): { usd: number } | null;
  /** The session's tools and the permission gate in front of them. */
  readonly tools: ToolHost;
  /** The memories a session's context starts with (long-term memory); none when absent. */
  memoryBrief?(sessionId: string): readonly MemoryRecord[];
  /** What the agent is told about the session beyond the fixed prompt (its skills), read at the start of each run. */
  instructionsFor?(sessionId: string): Promise<string | null>;
  /** Fits each request into the model's window (history, offloaded outputs, token estimates). */
  readonly context: ModelContext;
  now(): number;
  /** The person's instructions and model settings for a run of this session (none when absent). */
  preferencesOf?(sessionId: string, connectionId: string): RunPreferences;
  /** Retries of a transient provider error within one step (default 3). */
  readonly maxRetries?: number;
  /** Base of the exponential backoff between retries (default 500 ms). */
  readonly retryBaseMs?: number;
  /** Reads the files attached to user messages; without it they are left out. */
  readonly loadAttachment?: AttachmentLoader;
  /** Instructions for this session besides Cairn's own (a child agent's, or its parent's children). */
  readonly systemPromptFor?: (sessionId: string) => string | null;
  /** Summarises a session's older turns with this target's model when a request reaches the compaction threshold. */
  readonly compact?: (request: {
    sessionId: string;
    turnId: string;
    runId: string;
    target: ProviderTarget;
    need: CompactionNeed;
    signal: AbortSignal;
  }) => Promise<CompactOutcome>;
}

/** The longest the backend waits before a retry, whatever the provider asks. */
const MAX_RETRY_DELAY_MS = 30_000;

export const MODEL_BACKEND_ID = 'model';

const SYSTEM_PROMPT = [
  'You are the agent inside Cairn, a desktop workspace where a person works with AI agents.',
  'Answer clearly and concisely, in Markdown. Use the tools you are given when they help; do not invent tool results.',
].join(' ');

/**
 * The built-in agent over a real model: one model step at a time (the runtime records every step,
 * tool call and tool result before the next begins), tools run between steps, transient provider
 * errors retried with backoff within the step (each wait and retry reported as `provider_wait`, so the
 * screen can say what it waits for), Stop aborting the in-flight request. A resumed run whose answer
 * was cut off asks the model to continue that answer rather than give it again.
 */
export function createModelAgentBackend(deps: ModelAgentDeps): AgentBackend {
  const retries: RetryPolicy = {
    maxRetries: deps.maxRetries ?? 3,
    retryBaseMs: deps.retryBaseMs ?? 500,
    now: deps.now,
  };

  async function* run(input: AgentRunInput, signal: AbortSignal): AsyncGenerator<AgentEvent> {
    const target = deps.resolveTarget(input.connectionId, input.model);
    if ('error' in target)
      throw new AgentBackendError('connection_unavailable', target.error, 'connection_unavailable');
    const context = { sessionId: input.sessionId, turnId: input.turnId, runId: input.runId, now: deps.now, signal };
    if (input.approvedToolCall !== null) {
      // The person approved this call while the run waited: run it now (it is recorded), then let the model go on.
      const end = yield* runToolCall(input.approvedToolCall, deps.tools, context, { approved: true });
      if (end.ended !== 'result') return;
    }
    const preferences = deps.preferencesOf?.(input.sessionId, input.connectionId) ?? {
      instructions: [],
      modelSettings: {},
    };
    const system = await systemPromptOf(deps, input, preferences);
    let firstStep = true;
    await deps.context.prepare?.(input.connectionId, target, signal);
    /** Set once a compaction found nothing to summarise: this run does not ask again. */
    let nothingToCompact = false;

    for (;;) {
      // The session's MCP servers connected (and their tool lists current) before the step's tools are listed.
      await deps.tools.prepare?.(input.sessionId);
      if (signal.aborted) return;
      yield { type: 'step_started' };
      // Each step reads what it sends from the transcript (where the previous step's calls and results
      // are recorded by now), fitted into the model's window.
      const tools = deps.tools
        .toolsFor(input.sessionId)
        .map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }));
      const fitRequest = {
        sessionId: input.sessionId,
        connectionId: input.connectionId,
        turnId: input.turnId,
        turnText: input.text,
        target,
        system,
        tools,
      };
      let fitted = deps.context.fit(fitRequest);
      if (fitted.compaction !== null && deps.compact !== undefined && !nothingToCompact) {
        // The request reaches the threshold: the older turns are summarised first (recorded in this run).
        const compact = deps.compact;
        const need = fitted.compaction;
        yield* fireStepHooks(deps.tools.hooks, {
          event: 'PreCompact',
          sessionId: input.sessionId,
          source: 'auto',
          signal,
        });
        const outcome = yield* withRetries(retries, signal, compactionFailure, () =>
          compact({ sessionId: input.sessionId, turnId: input.turnId, runId: input.runId, target, need, signal }),
        );
        if (outcome === 'stopped') return;
        for (const usage of outcome.kind === 'nothing' ? [] : outcome.usage) yield { type: 'usage', ...usage };
        if (outcome.kind === 'stopped' || signal.aborted) return;
        if (outcome.kind === 'nothing') nothingToCompact = true;
        else fitted = deps.context.fit(fitRequest);
      }
      const stepSystem = fitted.contextBlock === null ? system : `${system}\n\n${fitted.contextBlock}`;
      const conversation = conversationFromHistory(fitted.history, deps.loadAttachment);
      const messages: ConversationMessage[] =
        firstStep && input.resume !== null ? continuingPartialAnswer(conversation, target.providerType) : conversation;
      firstStep = false;
      const request: ModelStepRequest = {
        target,
        system: stepSystem,
        messages,
        ...preferences.modelSettings,
        tools,
        signal,
      };
      const calls = yield* streamStepWithRetries(deps, retries, request, (usage, latencyMs) => {
        deps.context.observe(input.sessionId, target, fitted.estimatedInputTokens, usage.inputTokens);
        return {
          type: 'usage',
          model: target.modelId,
          ...usage,
          latencyMs,
          costUsd: deps.costOf(target, usage)?.usd ?? null,
        };
      });
      if (calls === 'stopped' || calls.length === 0) return;

      for (const call of calls) {
        const end = yield* runToolCall(call, deps.tools, context, { approved: false });
        // Suspended: the run waits for the person (calls after this one in the step are not run).
        if (end.ended !== 'result') return;
      }
    }
  }

  return { id: MODEL_BACKEND_ID, run };
}

/** Cairn's prompt, the agent's and the skills', the person's instructions and memories, and a note when the run resumes. */
async function systemPromptOf(
  deps: ModelAgentDeps,
  input: AgentRunInput,
  preferences: RunPreferences,
): Promise<string> {
  const skillsPrompt = (await deps.instructionsFor?.(input.sessionId)) ?? null;
  const agentPrompt = deps.systemPromptFor?.(input.sessionId) ?? null;
  const own = [SYSTEM_PROMPT, agentPrompt, skillsPrompt].filter((part): part is string => part !== null).join('\n\n');
  const base = withMemoryBrief(
    systemPromptWith(own, preferences.instructions),
    deps.memoryBrief?.(input.sessionId) ?? [],
  );
  return input.resume === null
    ? base
    : `${base}\n\nYour previous attempt at the person's latest request ended early (${input.resume.reason ?? input.resume.previousStatus}). Continue from where it stopped; do not start over or repeat what you already said.`;
}

interface RetryPolicy {
  readonly maxRetries: number;
  readonly retryBaseMs: number;
  now(): number;
}

type StepCall = { toolCallId: string; toolName: string; input: unknown };

/**
 * One model step, its text and reasoning streamed as they come and its tool calls collected; a transient
 * failure before anything streamed is retried with backoff (each wait reported). `stopped` on Stop.
 */
async function* streamStepWithRetries(
  deps: ModelAgentDeps,
  retries: RetryPolicy,
  request: ModelStepRequest,
  usageEvent: (usage: ModelUsage, latencyMs: number) => AgentEvent,
): AsyncGenerator<AgentEvent, StepCall[] | 'stopped'> {
  const maxAttempts = retries.maxRetries + 1;
  const signal = request.signal;
  for (let attempt = 0; ; attempt += 1) {
    const calls: StepCall[] = [];
    let emitted = false;
    yield {
      type: 'provider_wait',
      progress: { phase: 'waiting_for_provider', attempt: attempt + 1, maxAttempts, since: deps.now() },
    };
    try {
      for await (const event of deps.streamStep(request)) {
        if (!emitted) yield { type: 'provider_wait', progress: null };
        emitted = true;
        switch (event.type) {
          case 'text_delta':
          case 'reasoning_delta':
            yield event;
            break;
          case 'tool_call':
            calls.push({ toolCallId: event.toolCallId, toolName: event.toolName, input: event.input });
            break;
          case 'finish':
            yield usageEvent(event.usage, event.latencyMs);
            break;
        }
      }
      return calls;
    } catch (error) {
      const failure = error instanceof ProviderError ? error : null;
      if (signal?.aborted === true || failure?.errorClass === 'aborted') return 'stopped';
      if (failure === null) throw error;
      const reason = retryReasonOf(failure.errorClass);
      if (!failure.transient || reason === null || emitted || attempt >= retries.maxRetries)
        throw backendErrorOf(failure);
      if ((yield* waitBeforeRetry(retries, failure, reason, attempt, signal)) === 'stopped') return 'stopped';
    }
  }
}

/**
 * A call retried like a step when it fails transiently (rate limit, overload, a cut connection); anything
 * else, or the last attempt, throws what `failureOf` makes of the error. `stopped` on Stop.
 */
async function* withRetries<T>(
  retries: RetryPolicy,
  signal: AbortSignal,
  failureOf: (error: unknown) => Error,
  call: () => Promise<T>,
): AsyncGenerator<AgentEvent, T | 'stopped'> {
  const maxAttempts = retries.maxRetries + 1;
  for (let attempt = 0; ; attempt += 1) {
    yield {
      type: 'provider_wait',
      progress: { phase: 'waiting_for_provider', attempt: attempt + 1, maxAttempts, since: retries.now() },
    };
    try {
      const result = await call();
      yield { type: 'provider_wait', progress: null };
      return result;
    } catch (error) {
      if (signal.aborted) return 'stopped';
      const failure = error instanceof ProviderError ? error : null;
      const reason = failure === null ? null : retryReasonOf(failure.errorClass);
      if (failure === null || !failure.transient || reason === null || attempt >= retries.maxRetries)
        throw failureOf(error);
      if ((yield* waitBeforeRetry(retries, failure, reason, attempt, signal)) === 'stopped') return 'stopped';
    }
  }
}

/** Waits the provider's Retry-After or the backoff (at most 30 s), saying when the next attempt starts. */
async function* waitBeforeRetry(
  retries: RetryPolicy,
  failure: ProviderError,
  reason: RetryReason,
  attempt: number,
  signal: AbortSignal | undefined,
): AsyncGenerator<AgentEvent, 'waited' | 'stopped'> {
  const delayMs = Math.min(failure.retryAfterMs ?? retries.retryBaseMs * 2 ** attempt, MAX_RETRY_DELAY_MS);
  const since = retries.now();
  yield {
    type: 'provider_wait',
    progress: {
      phase: 'retrying',
      attempt: attempt + 2,
      maxAttempts: retries.maxRetries + 1,
      reason,
      since,
      resumeAt: since + delayMs,
    },
  };
  await abortableDelay(delayMs, signal);
  return signal?.aborted === true ? 'stopped' : 'waited';
}

/** A summary that could not be written: the turn fails with its own reason, and nothing is lost. */
function compactionFailure(error: unknown): AgentBackendError {
  const detail = error instanceof ProviderError || error instanceof Error ? error.message : String(error);
  return new AgentBackendError(
    'compaction_failed',
    `Cairn could not summarise the earlier conversation, so this request was not sent (${detail}). Nothing was lost; retry to try again.`,
    'compaction_failed',
  );
}

/** The run's failure: a timeout and a usage limit have their own classes, everything else is a provider error. */
function backendErrorOf(failure: ProviderError): AgentBackendError {
  switch (failure.errorClass) {
    case 'usage_limit':
      return new AgentBackendError('usage_limit', failure.message, 'usage_limit');
    case 'timed_out':
      return new AgentBackendError('provider_timeout', failure.message, 'provider_timeout');
    default:
      return new AgentBackendError(failure.errorClass, failure.message, 'provider_error');
  }
}

function retryReasonOf(errorClass: ProviderErrorClass): RetryReason | null {
  return errorClass === 'rate_limited' || errorClass === 'server_error' || errorClass === 'unreachable'
    ? errorClass
    : null;
}

function abortableDelay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted === true) return resolve();
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}
