import { countTokens as countWhole } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { countTokens, SESSIONS_CALIBRATED, TokenCalibration } from './token-count';

describe('token counting', () => {
  it('counts like the tokenizer on ordinary text and accepts special-token text', () => {
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(50);
    expect(countTokens(text)).toBeGreaterThanOrEqual(countWhole(text));
    expect(countTokens(text)).toBeLessThanOrEqual(countWhole(text) * 1.05);
    expect(countTokens('a <|endoftext|> b')).toBeGreaterThan(3);
  });

  it('counts a long run without spaces in slices, never below the whole count', () => {
    // 10k characters with no space, ten slices (plain BPE on the whole is quadratic: 50k took 9 s or more)
    const blob = 'abcdefghij'.repeat(1_000);
    const sliced = countTokens(blob);
    expect(sliced).toBeGreaterThan(0);
    expect(sliced).toBeGreaterThanOrEqual(countWhole(blob));
  });

  it('calibrates other providers by their reported input tokens, within bounds; OpenAI stays exact', () => {
    const calibration = new TokenCalibration();
    expect(calibration.factorFor('s1', 'anthropic')).toBe(1);
    calibration.observe('s1', 'anthropic', 1_000, 1_200);
    expect(calibration.factorFor('s1', 'anthropic')).toBeCloseTo(1.2);
    expect(calibration.factorFor('s2', 'anthropic')).toBe(1);
    calibration.observe('s1', 'anthropic', 100, 10_000);
    expect(calibration.factorFor('s1', 'anthropic')).toBe(3);
    calibration.observe('s1', 'anthropic', 1_000, 10);
    expect(calibration.factorFor('s1', 'anthropic')).toBe(0.8);
    calibration.observe('s3', 'openai', 1_000, 2_000);
    expect(calibration.factorFor('s3', 'openai')).toBe(1);
  });

  it('keeps the calibration of the sessions used most recently only (a host open for days does not grow)', () => {
    const calibration = new TokenCalibration();
    calibration.observe('first', 'anthropic', 1_000, 1_500);
    calibration.observe('busy', 'anthropic', 1_000, 2_000);
    for (let index = 0; index < SESSIONS_CALIBRATED - 1; index += 1) {
      calibration.observe(`child-${index}`, 'anthropic', 1_000, 1_200);
      if (index % 100 === 0) expect(calibration.factorFor('busy', 'anthropic')).toBe(2);
    }
    expect(calibration.factorFor('busy', 'anthropic')).toBe(2);
    expect(calibration.factorFor('first', 'anthropic')).toBe(1); // forgotten: back to no correction
  });
});
