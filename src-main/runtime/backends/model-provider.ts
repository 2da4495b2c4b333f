/**
 * A model provider: one model call (a step) at a time, streamed. The built-in agent loop over real
 * providers (OpenAI, Anthropic, Ollama, OpenAI-compatible) implements AgentBackend on top of this.
 */

export interface ModelMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly text: string;
}

export interface ModelRequest {
  readonly model: string;
  readonly messages: readonly ModelMessage[];
}

export type ModelStreamEvent =
  | { readonly type: 'text_delta'; readonly text: string }
  | { readonly type: 'reasoning_delta'; readonly text: string }
  | { readonly type: 'finish'; readonly reason: 'stop' | 'length' | 'tool_calls' | 'other'; readonly inputTokens: number; readonly outputTokens: number };

export interface ModelProvider {
  readonly providerType: string;
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent>;
}
