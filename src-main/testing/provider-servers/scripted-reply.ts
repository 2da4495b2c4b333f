/**
 * What a provider test server answers to one model call, in provider-neutral terms. Each provider's
 * server renders it in that provider's real wire format (SSE or NDJSON, its error bodies).
 */

export interface ScriptedToolCall {
  readonly id: string;
  readonly name: string;
  /** The JSON arguments as the model streams them: joined, they must parse. */
  readonly argumentChunks: readonly string[];
}

export interface ScriptedUsage {
  /** All input tokens, cached ones included. */
  readonly inputTokens: number;
  /** All output tokens, reasoning ones included. */
  readonly outputTokens: number;
  readonly cachedInputTokens?: number;
  readonly reasoningTokens?: number;
}

export type ScriptedFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';

/**
 * How the stream ends: `finish` sends the finish reason, usage and the end marker; `hang` keeps the
 * connection open, sending nothing more, until the client disconnects; `drop` destroys the socket;
 * `{ error }` sends the provider's in-stream error event carrying `error` and ends the answer.
 */
export type ScriptedEnding = 'finish' | 'hang' | 'drop' | { readonly error: unknown };

export interface ScriptedStream {
  readonly kind: 'stream';
  /** Reasoning chunks, streamed before any text (where the format carries reasoning). */
  readonly reasoning: readonly string[];
  readonly text: readonly string[];
  readonly toolCalls: readonly ScriptedToolCall[];
  readonly usage: ScriptedUsage;
  /** Defaults to `tool_calls` when there are tool calls, else `stop`. */
  readonly finishReason: ScriptedFinishReason | null;
  readonly ending: ScriptedEnding;
}

/** An HTTP error answer: status, extra headers (e.g. `retry-after`) and the provider's error body. */
export interface ScriptedError {
  readonly kind: 'error';
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Sent as JSON unless it is a string. */
  readonly body: unknown;
}

export type ScriptedReply = ScriptedStream | ScriptedError;

const DEFAULT_USAGE: ScriptedUsage = { inputTokens: 10, outputTokens: 5 };

/** A streamed reply; every part is optional. */
export function streamReply(parts: Partial<Omit<ScriptedStream, 'kind'>> = {}): ScriptedStream {
  return {
    kind: 'stream',
    reasoning: parts.reasoning ?? [],
    text: parts.text ?? [],
    toolCalls: parts.toolCalls ?? [],
    usage: parts.usage ?? DEFAULT_USAGE,
    finishReason: parts.finishReason ?? null,
    ending: parts.ending ?? 'finish',
  };
}

/** `text` split into `chunks` pieces of about equal length (at least one character each). */
export function textReply(text: string, chunks = 3, usage?: ScriptedUsage): ScriptedStream {
  return streamReply({ text: splitInto(text, chunks), ...(usage === undefined ? {} : { usage }) });
}

/** One tool call whose JSON arguments arrive in `chunks` pieces. */
export function toolCallReply(
  call: { id: string; name: string; input: unknown },
  chunks = 3,
  text: readonly string[] = [],
): ScriptedStream {
  return streamReply({
    text,
    toolCalls: [{ id: call.id, name: call.name, argumentChunks: splitInto(JSON.stringify(call.input), chunks) }],
  });
}

/** Streams `text`, then the provider's in-stream error event carrying `error` (e.g. Anthropic's overloaded_error). */
export function midStreamErrorReply(text: readonly string[], error: unknown): ScriptedStream {
  return streamReply({ text, ending: { error } });
}

/** Streams `text` (possibly nothing), then keeps the connection open until the client goes away. */
export function hangReply(text: readonly string[] = []): ScriptedStream {
  return streamReply({ text, ending: 'hang' });
}

export function errorReply(
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): ScriptedError {
  return { kind: 'error', status, headers, body };
}

export function finishReasonOf(stream: ScriptedStream): ScriptedFinishReason {
  return stream.finishReason ?? (stream.toolCalls.length > 0 ? 'tool_calls' : 'stop');
}

/** Splits `text` into `count` consecutive pieces (fewer when the text is shorter). */
export function splitInto(text: string, count: number): string[] {
  const pieces = Math.max(1, Math.min(count, text.length));
  const size = Math.ceil(text.length / pieces);
  const result: string[] = [];
  for (let start = 0; start < text.length; start += size) result.push(text.slice(start, start + size));
  return result.length === 0 ? [''] : result;
}
