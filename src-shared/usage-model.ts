/** Token usage and cost, per model call and summed. */

export interface UsageTotals {
  readonly calls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cachedInputTokens: number;
  readonly reasoningTokens: number;
  /** Null when no call in the group had a known price. */
  readonly costUsd: number | null;
}

export interface UsageGroup extends UsageTotals {
  /** A session id, a day as YYYY-MM-DD (UTC), or a connection id and model id. */
  readonly key: string;
  readonly label: string;
}
