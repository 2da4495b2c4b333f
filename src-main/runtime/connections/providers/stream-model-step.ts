import { streamText, type FinishReason, type LanguageModelUsage, type TextStreamPart, type ToolSet } from 'ai';
import { classifyProviderError } from './classify-provider-error';
import { toModelMessages } from './conversation-messages';
import { languageModelFor } from './language-model';
import { ProviderError } from './provider-error';
import type { ModelFinishReason, ModelStepEvent, ModelStepRequest, ModelUsage } from './provider-types';
import { toolSetFor } from './model-tools';
import { streamSettingsFor } from './request-settings';
import { startStreamWatchdog } from './stream-watchdog';

/**
 * One model call (one step) through the AI SDK's `streamText`: text, reasoning and complete tool
 * calls as they arrive, then `finish` with the usage. Tools are described, never executed; the SDK does
 * not retry (`maxRetries: 0`; the runtime decides). Failures throw a ProviderError. Aborting
 * `request.signal` closes the HTTP request and ends the iteration at once with class `aborted`;
 * so does leaving the loop early. The target's timeouts end a silent call the same way, with class
 * `timed_out`.
 */
export async function* streamModelStep(request: ModelStepRequest): AsyncGenerator<ModelStepEvent, void, undefined> {
  const started = performance.now();
  const secrets = [request.target.apiKey];
  const fail = (error: unknown) => classifyProviderError(error, { secrets });
  if (request.signal.aborted) throw stoppedBy(request.signal);

  const controller = new AbortController();
  const onAbort = () => controller.abort(request.signal.reason);
  request.signal.addEventListener('abort', onAbort, { once: true });
  const watchdog = startStreamWatchdog(request.target.timeouts, (error) => controller.abort(error));
  // A stop by the person wins over a timeout that fired at the same moment.
  const ended = () =>
    request.signal.aborted ? stoppedBy(request.signal) : (watchdog.timedOut ?? stoppedBy(request.signal));

  let reader: ReadableStreamDefaultReader<TextStreamPart<ToolSet>> | null = null;
  let completed = false;
  try {
    const streamedErrors: unknown[] = [];
    const model = languageModelFor(request.target, request.fetch, (error) => streamedErrors.push(error));
    const result = streamText({
      model,
      ...(request.system === undefined ? {} : { system: request.system }),
      messages: toModelMessages(request.messages, { replayReasoning: request.target.providerType !== 'anthropic' }),
      ...(request.tools.length === 0 ? {} : { tools: toolSetFor(request.tools) }),
      ...streamSettingsFor(request.target.providerType, {
        ...(request.maxOutputTokens === undefined ? {} : { maxOutputTokens: request.maxOutputTokens }),
        ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
        ...(request.reasoningEffort === undefined ? {} : { reasoningEffort: request.reasoningEffort }),
      }),
      maxRetries: 0,
      abortSignal: controller.signal,
      // Errors arrive as `error` parts below; the default handler would also print them.
      onError: () => {},
    });
    reader = result.fullStream.getReader();

    let finish: ModelStepEvent | null = null;
    for (;;) {
      const next = await readUnlessStopped(reader, controller.signal);
      if (next === 'stopped' || controller.signal.aborted) throw ended();
      if (next.done) break;
      const part = next.value;
      watchdog.saw(TOKEN_PARTS.has(part.type));
      switch (part.type) {
        case 'text-delta':
          if (part.text !== '') yield { type: 'text_delta', text: part.text };
          break;
        case 'reasoning-delta':
          if (part.text !== '') yield { type: 'reasoning_delta', text: part.text };
          break;
        case 'tool-call':
          yield { type: 'tool_call', toolCallId: part.toolCallId, toolName: part.toolName, input: part.input };
          break;
        case 'finish':
          finish = {
            type: 'finish',
            finishReason: finishReasonOf(part.finishReason),
            usage: usageOf(part.totalUsage),
            latencyMs: Math.round(performance.now() - started),
          };
          break;
        case 'error':
          throw fail(part.error);
        case 'abort':
          throw ended();
        default:
          break;
      }
    }
    if (streamedErrors.length > 0) throw fail(streamedErrors[0]);
    if (finish === null) throw new ProviderError('server_error', 'The provider ended its answer without finishing it.');
    completed = true;
    yield finish;
  } catch (error) {
    if (controller.signal.aborted && !completed) throw ended();
    throw error instanceof ProviderError ? error : fail(error);
  } finally {
    watchdog.stop();
    request.signal.removeEventListener('abort', onAbort);
    // Leaving early (an error, a stop, or the caller breaking out) must close the HTTP request.
    if (!completed) controller.abort();
    reader?.cancel().catch(() => {});
  }
}

/** Parts that carry the answer: the first of them ends the wait for the first token. */
const TOKEN_PARTS: ReadonlySet<TextStreamPart<ToolSet>['type']> = new Set([
  'text-delta',
  'reasoning-delta',
  'tool-input-start',
  'tool-input-delta',
  'tool-call',
  'finish',
]);

/**
 * The next part, or `stopped` as soon as `signal` aborts, even if the read never settles (a fetch that
 * ignores its signal). The listener is removed after each read, so a long stream does not pile them up.
 */
function readUnlessStopped<T>(
  reader: ReadableStreamDefaultReader<T>,
  signal: AbortSignal,
): Promise<ReadableStreamReadResult<T> | 'stopped'> {
  if (signal.aborted) return Promise.resolve('stopped');
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve('stopped');
    signal.addEventListener('abort', onAbort, { once: true });
    reader.read().then(
      (result) => {
        signal.removeEventListener('abort', onAbort);
        resolve(result);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** The error for a step ended by its signal: `aborted`, or `unreachable` when the signal was a timeout. */
function stoppedBy(signal: AbortSignal): ProviderError {
  const reason: unknown = signal.reason;
  const timedOut =
    typeof reason === 'object' && reason !== null && (reason as { name?: unknown }).name === 'TimeoutError';
  return timedOut
    ? new ProviderError('unreachable', 'The provider did not answer in time.')
    : new ProviderError('aborted', 'The model call was stopped.');
}

const FINISH_REASONS: Readonly<Record<FinishReason, ModelFinishReason>> = {
  stop: 'stop',
  length: 'length',
  'content-filter': 'content_filter',
  'tool-calls': 'tool_calls',
  error: 'other',
  other: 'other',
};

function finishReasonOf(reason: FinishReason): ModelFinishReason {
  // A provider may report a reason newer than this table.
  return Object.hasOwn(FINISH_REASONS, reason) ? FINISH_REASONS[reason] : 'other';
}

function usageOf(usage: LanguageModelUsage): ModelUsage {
  return {
    inputTokens: usage.inputTokens ?? 0,
    outputTokens: usage.outputTokens ?? 0,
    cachedInputTokens: usage.inputTokenDetails?.cacheReadTokens ?? usage.cachedInputTokens ?? 0,
    reasoningTokens: usage.outputTokenDetails?.reasoningTokens ?? usage.reasoningTokens ?? 0,
  };
}
