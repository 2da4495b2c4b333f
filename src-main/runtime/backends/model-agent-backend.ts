import type { RetryReason } from '../../../src-shared/run-progress';
import type { ModelStepEvent, ModelStepRequest, ModelUsage, ProviderErrorClass, ProviderTarget } from '../providers';
import { ProviderError } from '../providers';
import { runToolCall, type ToolHost } from '../tools/tool-runner';
import type { AgentBackend, AgentEvent, AgentRunInput } from './agent-backend';
import { AgentBackendError } from './agent-backend';
import { continuingPartialAnswer } from './continue-answer';
import { conversationFromHistory, type ConversationMessage } from './conversation';

export interface ModelAgentDeps {
  /** Where this session's runs go, or why they cannot. */
  resolveTarget(connectionId: string, model: string | null): ProviderTarget | { error: string };
  streamStep(request: ModelStepRequest): AsyncIterable<ModelStepEvent>;
  costOf(target: ProviderTarget, usage: ModelUsage): { usd: number } | null;
  /** The session's tools and the permission gate in front of them. */
  readonly tools: ToolHost;
  now(): number;
  /** Retries of a transient provider error within one step (default 3). */
  readonly maxRetries?: number;
  /** Base of the exponential backoff between retries (default 500 ms). */
  readonly retryBaseMs?: number;
  /** Instructions for this session besides Cairn's own (a child agent's, or its parent's children). */
  readonly systemPromptFor?: (sessionId: string) => string | null;
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
  const maxRetries = deps.maxRetries ?? 3;
  const retryBaseMs = deps.retryBaseMs ?? 500;

  async function* run(input: AgentRunInput, signal: AbortSignal): AsyncGenerator<AgentEvent> {
    const target = deps.resolveTarget(input.connectionId, input.model);
    if ('error' in target) throw new AgentBackendError('connection_unavailable', target.error, 'connection_unavailable');
    const context = { sessionId: input.sessionId, turnId: input.turnId, runId: input.runId, now: deps.now, signal };
    let history = input.history;
    if (input.approvedToolCall !== null) {
      // The person approved this call while the run waited: run it now, then let the model go on.
      const end = yield* runToolCall(input.approvedToolCall, deps.tools, context, { approved: true });
      if (end.ended !== 'result') return;
      history = [...history, { role: 'tool_result', text: input.approvedToolCall.toolName, turnId: input.turnId, runId: input.runId, data: { ...input.approvedToolCall, output: end.output, isError: end.isError } }];
    }
    const conversation = conversationFromHistory(history);
    const messages: ConversationMessage[] = input.resume === null ? conversation : continuingPartialAnswer(conversation, target.providerType);
    const maxAttempts = maxRetries + 1;
    const extra = deps.systemPromptFor?.(input.sessionId) ?? null;
    const base = extra === null ? SYSTEM_PROMPT : `${SYSTEM_PROMPT}\n\n${extra}`;
    const system =
      input.resume === null
        ? base
        : `${base}\n\nYour previous attempt at the person's latest request ended early (${input.resume.reason ?? input.resume.previousStatus}). Continue from where it stopped; do not start over or repeat what you already said.`;

    for (;;) {
      yield { type: 'step_started' };
      let text = '';
      let reasoning = '';
      const calls: { toolCallId: string; toolName: string; input: unknown }[] = [];
      for (let attempt = 0; ; attempt += 1) {
        let emitted = false;
        yield { type: 'provider_wait', progress: { phase: 'waiting_for_provider', attempt: attempt + 1, maxAttempts, since: deps.now() } };
        try {
          for await (const event of deps.streamStep({
            target,
            system,
            messages,
            tools: deps.tools.toolsFor(input.sessionId).map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema })),
            signal,
          })) {
            if (!emitted) yield { type: 'provider_wait', progress: null };
            emitted = true;
            switch (event.type) {
              case 'text_delta':
                text += event.text;
                yield event;
                break;
              case 'reasoning_delta':
                reasoning += event.text;
                yield event;
                break;
              case 'tool_call':
                calls.push({ toolCallId: event.toolCallId, toolName: event.toolName, input: event.input });
                break;
              case 'finish':
                yield {
                  type: 'usage',
                  model: target.modelId,
                  ...event.usage,
                  latencyMs: event.latencyMs,
                  costUsd: deps.costOf(target, event.usage)?.usd ?? null,
                };
                break;
            }
          }
          break;
        } catch (error) {
          const failure = error instanceof ProviderError ? error : null;
          if (signal.aborted || failure?.errorClass === 'aborted') return;
          if (failure === null) throw error;
          const reason = retryReasonOf(failure.errorClass);
          if (!failure.transient || reason === null || emitted || attempt >= maxRetries) throw backendErrorOf(failure);
          const delayMs = Math.min(failure.retryAfterMs ?? retryBaseMs * 2 ** attempt, MAX_RETRY_DELAY_MS);
          const since = deps.now();
          yield { type: 'provider_wait', progress: { phase: 'retrying', attempt: attempt + 2, maxAttempts, reason, since, resumeAt: since + delayMs } };
          await abortableDelay(delayMs, signal);
          if (signal.aborted) return;
        }
      }
      messages.push({ role: 'assistant', text, ...(reasoning === '' ? {} : { reasoning }), ...(calls.length === 0 ? {} : { toolCalls: calls }) });
      if (calls.length === 0) return;

      const results: { toolCallId: string; toolName: string; output: unknown; isError: boolean }[] = [];
      for (const call of calls) {
        const end = yield* runToolCall(call, deps.tools, context, { approved: false });
        // Suspended: the run waits for the person (calls after this one in the step are not run).
        if (end.ended !== 'result') return;
        results.push({ ...call, output: end.output, isError: end.isError });
      }
      messages.push({ role: 'tool', results });
    }
  }

  return { id: MODEL_BACKEND_ID, run };
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
  return errorClass === 'rate_limited' || errorClass === 'server_error' || errorClass === 'unreachable' ? errorClass : null;
}

function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
