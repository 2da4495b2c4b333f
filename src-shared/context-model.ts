/** How full a session's context is: what its latest model request sent, against the model's window. */
export interface ContextMeter {
  /** Estimated input tokens of the latest request. */
  readonly used: number;
  readonly contextWindow: number;
  /** Kept free for the model's answer. */
  readonly outputReserve: number;
  /**
   * `known` from Cairn's table, `override` set in Settings, `default` a safe guess for an unknown model,
   * `reported` by a native agent that runs its own context (Codex: its token usage and model window;
   * no breakdown, so `breakdown` is all zero).
   */
  readonly windowSource: 'known' | 'override' | 'default' | 'reported';
  /** What fills it: the system prompt with the tool list, a summary, messages, tool calls and output. */
  readonly breakdown: {
    readonly system: number;
    readonly summary: number;
    readonly messages: number;
    readonly toolOutput: number;
  };
  /** Whether older messages were left out to fit. */
  readonly trimmed: boolean;
  readonly modelId: string;
}

/** A per-model window the person set (Settings), keyed by connection and model. */
export interface ModelWindowOverride {
  readonly connectionId: string;
  readonly modelId: string;
  readonly contextWindow: number;
  readonly outputReserve: number;
}
