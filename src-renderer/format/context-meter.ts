import type { ContextMeter } from '../../src-shared/context-model';

/** 950 → "950", 12_345 → "12.3k", 1_047_576 → "1.05M". */
export function tokenCount(tokens: number): string {
  if (tokens < 1_000) return String(Math.round(tokens));
  if (tokens < 1_000_000) return `${(tokens / 1_000).toFixed(tokens < 100_000 ? 1 : 0).replace(/\.0$/, '')}k`;
  return `${(tokens / 1_000_000).toFixed(2).replace(/\.?0+$/, '')}M`;
}

/** The meter's face: used of the window. */
export function meterLabel(meter: ContextMeter): string {
  return `${tokenCount(meter.used)} / ${tokenCount(meter.contextWindow)}`;
}

/** Used as a fraction of what a request may send (the window less the reserve for the answer), 0…1. */
export function meterFill(meter: ContextMeter): number {
  const input = meter.contextWindow - meter.outputReserve;
  return input <= 0 ? 1 : Math.min(1, meter.used / input);
}

/** What the hover says: what fills the context, and where the window comes from. */
export function meterDetail(meter: ContextMeter): string {
  if (meter.windowSource === 'reported') {
    return [
      `Context of Codex's latest request and its answer: ${tokenCount(meter.used)} of ${tokenCount(meter.contextWindow)} tokens.`,
      `Window: reported by Codex for ${meter.modelId} — what Codex can use of the model's full window (the figure the model picker shows). Codex keeps its own context and does not say what fills it.`,
    ].join('\n');
  }
  const { system, summary, messages, toolOutput } = meter.breakdown;
  const source =
    meter.windowSource === 'override'
      ? 'set in Settings'
      : meter.windowSource === 'known'
        ? `known for ${meter.modelId}`
        : `a default: ${meter.modelId} is not a model Cairn knows`;
  return [
    `Context of the latest request: about ${tokenCount(meter.used)} of ${tokenCount(meter.contextWindow)} tokens (${tokenCount(meter.outputReserve)} kept for the answer).`,
    `System prompt and tools ${tokenCount(system)} · summary ${tokenCount(summary)} · messages ${tokenCount(messages)} · tool calls and output ${tokenCount(toolOutput)}.`,
    `Window: ${source}.`,
    meter.trimmed
      ? 'Older messages were left out to fit; the transcript keeps them all.'
      : summary > 0
        ? 'Older turns are sent as a summary; the transcript keeps them all.'
        : 'The whole conversation fits.',
  ].join('\n');
}
