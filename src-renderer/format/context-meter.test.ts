import { describe, expect, it } from 'vitest';
import type { ContextMeter } from '../../src-shared/context-model';
import { meterDetail, meterFill, meterLabel, tokenCount } from './context-meter';

const meter: ContextMeter = {
  used: 12_345,
  contextWindow: 32_000,
  outputReserve: 4_000,
  windowSource: 'default',
  breakdown: { system: 900, summary: 0, messages: 10_000, toolOutput: 1_445 },
  trimmed: true,
  modelId: 'mystery-7b',
};

describe('the context meter’s words', () => {
  it('writes token counts short', () => {
    expect([
      tokenCount(950),
      tokenCount(12_345),
      tokenCount(128_000),
      tokenCount(1_047_576),
      tokenCount(2_000),
    ]).toEqual(['950', '12.3k', '128k', '1.05M', '2k']);
  });

  it('labels used of the window and fills against what a request may send', () => {
    expect(meterLabel(meter)).toBe('12.3k / 32k');
    expect(meterFill(meter)).toBeCloseTo(12_345 / 28_000);
    expect(meterFill({ ...meter, used: 40_000 })).toBe(1);
  });

  it('says what fills it, that the window is a default, and that older messages were left out', () => {
    const detail = meterDetail(meter);
    expect(detail).toContain('messages 10k');
    expect(detail).toContain('tool calls and output 1.4k');
    expect(detail).toContain('a default: mystery-7b is not a model Cairn knows');
    expect(detail).toContain('Older messages were left out');
  });

  it('says when older turns are sent as a summary', () => {
    const detail = meterDetail({ ...meter, trimmed: false, breakdown: { ...meter.breakdown, summary: 640 } });
    expect(detail).toContain('summary 640');
    expect(detail).toContain('Older turns are sent as a summary');
    expect(meterDetail({ ...meter, trimmed: false })).toContain('The whole conversation fits.');
  });
});

describe('a meter Codex reported', () => {
  const reported: ContextMeter = {
    used: 12_345,
    contextWindow: 258_400,
    outputReserve: 0,
    windowSource: 'reported',
    breakdown: { system: 0, summary: 0, messages: 0, toolOutput: 0 },
    trimmed: false,
    modelId: 'gpt-5.5',
  };

  it('says the window is Codex’s and claims no breakdown', () => {
    expect(meterLabel(reported)).toBe('12.3k / 258k');
    expect(meterDetail(reported)).toBe(
      "Context of Codex's latest request and its answer: 12.3k of 258k tokens.\nWindow: reported by Codex for gpt-5.5 — what Codex can use of the model's full window (the figure the model picker shows). Codex keeps its own context and does not say what fills it.",
    );
  });
});
