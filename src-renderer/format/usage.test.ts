import { describe, expect, it } from 'vitest';
import { formatCost, formatTokenCount, formatTokens, usageDetail, usageLabel } from './usage';

describe('usage formatting', () => {
  it('shortens token counts the way chat apps do', () => {
    expect(formatTokenCount(0)).toBe('0');
    expect(formatTokenCount(950)).toBe('950');
    expect(formatTokenCount(1000)).toBe('1k');
    expect(formatTokenCount(1234)).toBe('1.2k');
    expect(formatTokenCount(9_960)).toBe('10k');
    expect(formatTokenCount(12_345)).toBe('12k');
    expect(formatTokenCount(1_234_567)).toBe('1.2M');
    expect(formatTokens(1)).toBe('1 token');
    expect(formatTokens(2)).toBe('2 tokens');
  });

  it('shows costs to the cent, fractions of a cent to three places, and nothing when unknown', () => {
    expect(formatCost(null)).toBeNull();
    expect(formatCost(0)).toBe('$0.00');
    expect(formatCost(0.0004)).toBe('<$0.001');
    expect(formatCost(0.0042)).toBe('$0.004');
    expect(formatCost(0.126)).toBe('$0.13');
    expect(formatCost(2500)).toBe('$2,500');
  });

  it('puts tokens and cost on one line', () => {
    expect(usageLabel({ inputTokens: 800, outputTokens: 400, costUsd: 0.0042 })).toBe('1.2k tokens · $0.004');
    expect(usageLabel({ inputTokens: 8, outputTokens: 16, costUsd: null })).toBe('24 tokens · —');
    expect(usageDetail({ inputTokens: 1200, outputTokens: 30, costUsd: null })).toBe(
      '1,200 input and 30 output tokens; price unknown',
    );
  });
});
