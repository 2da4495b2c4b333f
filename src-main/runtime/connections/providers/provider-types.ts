/** The vocabulary of the model-provider layer: what a step is asked and what it streams back. */

import type { ReasoningEffort } from '../../../../src-shared/chat-model';

export type ProviderType = 'openai' | 'anthropic' | 'ollama' | 'openai_compatible';

/** Where a model lives and how to reach it. */
export interface ProviderTarget {
  readonly providerType: ProviderType;
  /** The API root (`https://api.openai.com/v1`, `https://api.anthropic.com`, `http://127.0.0.1:11434`); null = the provider's default. */
  readonly baseUrl: string | null;
  readonly apiKey: string | null;
  readonly modelId: string;
  /** How long a step may wait for the first token and then between parts; none when absent. */
  readonly timeouts?: StreamTimeouts;
}

/** A connection's patience with a slow provider, in milliseconds. */
export interface StreamTimeouts {
  /** From sending the request until the first text, reasoning or tool call arrives. */
  readonly firstTokenMs: number;
  /** Between two parts of an answer that has begun. */
  readonly idleMs: number;
}

/** A connection without a model: what listing models and testing a connection need. */
export type ProviderConnection = Omit<ProviderTarget, 'modelId' | 'timeouts'>;

/** A tool the model may call. The runtime executes it; this layer only describes it to the model. */
export interface ModelToolSpec {
  readonly name: string;
  readonly description: string;
  /** A JSON Schema object describing the tool's input. */
  readonly inputSchema: Record<string, unknown>;
}

export interface ModelToolCall {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: unknown;
}

export interface ModelToolResult {
  readonly toolCallId: string;
  readonly toolName: string;
  /** Any JSON value; sent to the model as JSON (or, when `isError`, as error text). */
  readonly output: unknown;
  readonly isError: boolean;
}

/** A file the person attached to their message: text travels as text, an image as an image part. */
export type ModelAttachment =
  | { readonly kind: 'text'; readonly name: string; readonly text: string }
  | { readonly kind: 'image'; readonly name: string; readonly mediaType: string; readonly data: Uint8Array }
  /** The file is no longer in the data directory: the model is told so. */
  | { readonly kind: 'missing'; readonly name: string };

/** The conversation so far, oldest first. The system prompt travels separately. */
export type ConversationMessage =
  | { readonly role: 'user'; readonly text: string; readonly attachments?: readonly ModelAttachment[] }
  | {
      readonly role: 'assistant';
      readonly text: string;
      readonly reasoning?: string;
      readonly toolCalls?: readonly ModelToolCall[];
    }
  | { readonly role: 'tool'; readonly results: readonly ModelToolResult[] };

export interface ModelStepRequest {
  readonly target: ProviderTarget;
  readonly system?: string;
  readonly messages: readonly ConversationMessage[];
  readonly tools: readonly ModelToolSpec[];
  /** Aborting it closes the HTTP request and ends the step with a ProviderError of class `aborted`. */
  readonly signal: AbortSignal;
  readonly maxOutputTokens?: number;
  /** Sampling temperature, where the provider takes one. */
  readonly temperature?: number;
  /** How hard a reasoning model thinks, where the provider has the setting. */
  readonly reasoningEffort?: ReasoningEffort;
  /** Replaces the global fetch (tests, proxies). */
  readonly fetch?: typeof fetch;
}

export interface ModelUsage {
  /** All input tokens, cached ones included. */
  readonly inputTokens: number;
  /** All output tokens, reasoning ones included. */
  readonly outputTokens: number;
  /** The part of `inputTokens` read from the provider's prompt cache. */
  readonly cachedInputTokens: number;
  /** The part of `outputTokens` spent on reasoning. */
  readonly reasoningTokens: number;
}

export type ModelFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'other';

/** What one step streams, in order; `finish` comes last, exactly once, when the step succeeds. */
export type ModelStepEvent =
  | { readonly type: 'text_delta'; readonly text: string }
  | { readonly type: 'reasoning_delta'; readonly text: string }
  /** A complete tool call with its parsed arguments (the raw text when they were not valid JSON). */
  | ({ readonly type: 'tool_call' } & ModelToolCall)
  | {
      readonly type: 'finish';
      readonly finishReason: ModelFinishReason;
      readonly usage: ModelUsage;
      readonly latencyMs: number;
    };
