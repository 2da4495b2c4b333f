/** How much a model can read in one request, and how much of that is kept free for its answer. */
export interface ModelWindow {
  readonly contextWindow: number;
  readonly outputReserve: number;
  /** `known`: from the table below; `override`: set by the person in Settings; `default`: a safe guess. */
  readonly source: 'known' | 'override' | 'default';
}

/** A model nobody told us about: small enough to fit almost every model in use today. */
export const DEFAULT_MODEL_WINDOW: ModelWindow = { contextWindow: 32_000, outputReserve: 4_000, source: 'default' };

/**
 * Known models by id prefix, most specific first. The window is the provider's documented input
 * limit; the reserve is what Cairn keeps free for the answer (not the model's maximum output).
 */
const KNOWN: ReadonlyArray<readonly [prefix: string, contextWindow: number, outputReserve: number]> = [
  // OpenAI
  ['gpt-4.1', 1_047_576, 32_768],
  ['gpt-5', 400_000, 32_768],
  ['gpt-4o', 128_000, 16_384],
  ['gpt-4-turbo', 128_000, 4_096],
  ['gpt-4', 8_192, 2_048],
  ['gpt-3.5-turbo', 16_385, 4_096],
  ['o1', 200_000, 32_768],
  ['o3', 200_000, 32_768],
  ['o4-mini', 200_000, 32_768],
  ['codex-mini', 200_000, 32_768],
  // Anthropic
  ['claude-', 200_000, 16_384],
  // Common open models (Ollama, LM Studio, vLLM, OpenRouter ids after the slash)
  ['llama3.1', 128_000, 4_096],
  ['llama3.2', 128_000, 4_096],
  ['llama3.3', 128_000, 4_096],
  ['llama3', 8_192, 2_048],
  ['qwen2.5-coder', 32_768, 4_096],
  ['qwen2.5', 32_768, 4_096],
  ['qwen3', 40_960, 4_096],
  ['mistral-large', 128_000, 4_096],
  ['mistral-nemo', 128_000, 4_096],
  ['mistral', 32_768, 4_096],
  ['mixtral', 32_768, 4_096],
  ['gemma3', 128_000, 4_096],
  ['gemma2', 8_192, 2_048],
  ['phi4', 16_384, 4_096],
  ['phi3', 128_000, 4_096],
  ['deepseek-r1', 128_000, 8_192],
  ['deepseek-v3', 128_000, 8_192],
  ['deepseek-coder', 128_000, 4_096],
  ['gemini-', 1_000_000, 16_384],
];

/**
 * The window of a model: the person's override wins, then an Ollama model's reported
 * `context_length`, then the table, then the default (shown as such).
 */
export function modelWindowOf(
  _providerType: string,
  modelId: string,
  options: {
    readonly override?: Omit<ModelWindow, 'source'> | null;
    readonly reportedContextLength?: number | null;
  } = {},
): ModelWindow {
  if (options.override !== undefined && options.override !== null) return { ...options.override, source: 'override' };
  const reported = options.reportedContextLength;
  if (reported !== undefined && reported !== null && reported > 0) {
    return { contextWindow: reported, outputReserve: Math.min(4_096, Math.floor(reported / 4)), source: 'known' };
  }
  // `openrouter/anthropic/claude-…`, `library/llama3.1:8b`: the last path segment names the model.
  const bare = (modelId.split('/').at(-1) ?? modelId).toLowerCase();
  for (const [prefix, contextWindow, outputReserve] of KNOWN) {
    if (bare.startsWith(prefix)) return { contextWindow, outputReserve, source: 'known' };
  }
  return DEFAULT_MODEL_WINDOW;
}

/** What a request may spend on its input: the window less the reserve for the answer. */
export function inputBudgetOf(window: ModelWindow): number {
  return Math.max(0, window.contextWindow - window.outputReserve);
}
