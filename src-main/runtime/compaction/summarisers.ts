import type { UsageReport } from '../contract/agent-backend';
import type { HistoryMessage } from '../contract/agent-backend';
import type { ModelStepEvent, ModelStepRequest, ModelUsage, ProviderTarget } from '../connections/providers';

export interface SummaryInput {
  readonly system: string;
  readonly prompt: string;
  readonly previous: string | null;
  /** The messages the prompt renders (a deterministic summariser reads these). */
  readonly messages: readonly HistoryMessage[];
  readonly maxOutputTokens: number;
}

export interface SummaryOutput {
  readonly text: string;
  readonly usage: UsageReport | null;
}

/** Writes the summary of part of a conversation. A failure throws (a provider error). */
export interface Summariser {
  summarise(input: SummaryInput, signal: AbortSignal): Promise<SummaryOutput>;
}

export interface ModelSummariserDeps {
  readonly target: ProviderTarget;
  streamStep(request: ModelStepRequest): AsyncIterable<ModelStepEvent>;
  costOf(target: ProviderTarget, usage: ModelUsage): { usd: number } | null;
}

/** The session's own model writes the summary (one request, no tools, no retries: a failure is reported). */
export function modelSummariser(deps: ModelSummariserDeps): Summariser {
  return {
    async summarise(input, signal) {
      let text = '';
      let usage: UsageReport | null = null;
      for await (const event of deps.streamStep({
        target: deps.target,
        system: input.system,
        messages: [{ role: 'user', text: input.prompt }],
        tools: [],
        maxOutputTokens: input.maxOutputTokens,
        signal,
      })) {
        if (event.type === 'text_delta') text += event.text;
        if (event.type === 'finish') {
          usage = {
            model: deps.target.modelId,
            ...event.usage,
            latencyMs: event.latencyMs,
            costUsd: deps.costOf(deps.target, event.usage)?.usd ?? null,
          };
        }
      }
      if (text.trim() === '') throw new Error('The model returned an empty summary.');
      return { text: text.trim(), usage };
    },
  };
}

/**
 * The Offline demo's summary: written from the messages themselves, the same every time, so the
 * demo (and the tests) show a real summary card without a model.
 */
export const scriptedSummariser: Summariser = {
  summarise(input) {
    const asked = input.messages
      .filter((message) => message.role === 'user')
      .map((message) => oneLine(message.text, 80));
    const answers = input.messages.filter((message) => message.role === 'assistant').length;
    const calls = input.messages.filter((message) => message.role === 'tool_call');
    const tools = [...new Set(calls.map((message) => String(message.data?.toolName ?? message.text)))];
    const files = [...new Set(calls.flatMap((message) => pathOf(message.data?.input)))];
    const lines = [
      `**What was asked**: ${
        asked.length === 0
          ? 'nothing new'
          : asked
              .slice(0, 5)
              .map((text) => `“${text}”`)
              .join('; ')
      }${asked.length > 5 ? `; and ${asked.length - 5} more` : ''}.`,
      `**What was decided**: nothing beyond the answers given.`,
      `**What was done**: ${answers} ${answers === 1 ? 'answer' : 'answers'}, ${calls.length} tool ${calls.length === 1 ? 'call' : 'calls'}${tools.length === 0 ? '' : ` (${tools.join(', ')})`}.`,
      `**Files touched**: ${files.length === 0 ? 'none' : files.join(', ')}.`,
      `**Open items**: none recorded.`,
    ];
    if (input.previous !== null) lines.unshift(`**Before that**: ${oneLine(input.previous, 400)}`);
    return Promise.resolve({ text: lines.map((line) => `- ${line}`).join('\n'), usage: null });
  },
};

function oneLine(text: string, limit: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= limit ? flat : `${flat.slice(0, limit - 1)}…`;
}

function pathOf(input: unknown): string[] {
  if (typeof input !== 'object' || input === null) return [];
  const path = (input as Record<string, unknown>).path;
  return typeof path === 'string' && path !== '' ? [path] : [];
}
