/** Token counts and costs as chat apps show them: "1.2k tokens · $0.004". */

export interface UsageFigures {
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Null when the model's price is unknown. */
  readonly costUsd: number | null;
}

/** 950 → "950", 1234 → "1.2k", 12_345 → "12k", 1_234_567 → "1.2M". */
export function formatTokenCount(count: number): string {
  const value = Math.max(0, Math.round(count));
  if (value < 1000) return String(value);
  if (value < 1_000_000) return `${compact(value / 1000)}k`;
  return `${compact(value / 1_000_000)}M`;
}

/** One decimal below 10 (without a trailing ".0"), whole numbers above. */
function compact(value: number): string {
  if (value >= 10) return String(Math.round(value));
  const rounded = Math.round(value * 10) / 10;
  return rounded >= 10 ? '10' : String(rounded);
}

/** $0.004 for fractions of a cent, $1.23 above; null when the price is unknown. */
export function formatCost(costUsd: number | null): string | null {
  if (costUsd === null || !Number.isFinite(costUsd)) return null;
  if (costUsd === 0) return '$0.00';
  if (costUsd < 0.001) return '<$0.001';
  if (costUsd < 0.01) return `$${costUsd.toFixed(3)}`;
  if (costUsd < 1000) return `$${costUsd.toFixed(2)}`;
  return `$${Math.round(costUsd).toLocaleString('en-US')}`;
}

export function formatTokens(count: number): string {
  return `${formatTokenCount(count)} ${Math.round(count) === 1 ? 'token' : 'tokens'}`;
}

/** "1.2k tokens · $0.004"; "1.2k tokens · —" when the price of any call in it is unknown (usageDetail says so). */
export function usageLabel(usage: UsageFigures): string {
  const tokens = formatTokens(usage.inputTokens + usage.outputTokens);
  return `${tokens} · ${formatCost(usage.costUsd) ?? UNKNOWN_COST}`;
}

/** Shown for a cost that is not known: never "$0.00". */
export const UNKNOWN_COST = '—';

/** The split, for a tooltip or a screen reader: "812 input and 402 output tokens; price unknown". */
export function usageDetail(usage: UsageFigures): string {
  const cost = formatCost(usage.costUsd);
  const split = `${usage.inputTokens.toLocaleString('en-US')} input and ${usage.outputTokens.toLocaleString('en-US')} output tokens`;
  return `${split}; ${cost === null ? 'price unknown' : `cost ${cost}`}`;
}
