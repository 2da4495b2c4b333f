import { describe, expect, it } from 'vitest';
import { retryAfterMsFrom } from './retry-after';

const NOW = Date.parse('2025-06-01T12:00:00Z');

describe('retryAfterMsFrom', () => {
  it('reads retry-after-ms first, then retry-after in seconds', () => {
    expect(retryAfterMsFrom({ 'retry-after-ms': '250.4', 'retry-after': '9' }, NOW)).toBe(250);
    expect(retryAfterMsFrom({ 'retry-after': '9' }, NOW)).toBe(9000);
    expect(retryAfterMsFrom({ 'Retry-After': '1.5' }, NOW)).toBe(1500);
  });

  it('reads retry-after given as an HTTP date, never negative', () => {
    expect(retryAfterMsFrom({ 'retry-after': 'Sun, 01 Jun 2025 12:00:30 GMT' }, NOW)).toBe(30_000);
    expect(retryAfterMsFrom({ 'retry-after': 'Sun, 01 Jun 2025 11:00:00 GMT' }, NOW)).toBe(0);
  });

  it("reads Anthropic's reset instants, taking the latest", () => {
    const headers = {
      'anthropic-ratelimit-requests-reset': '2025-06-01T12:00:05Z',
      'anthropic-ratelimit-tokens-reset': '2025-06-01T12:00:20Z',
    };
    expect(retryAfterMsFrom(headers, NOW)).toBe(20_000);
  });

  it("reads OpenAI's reset durations", () => {
    expect(retryAfterMsFrom({ 'x-ratelimit-reset-requests': '6m0s' }, NOW)).toBe(360_000);
    expect(retryAfterMsFrom({ 'x-ratelimit-reset-requests': '20ms', 'x-ratelimit-reset-tokens': '1.5s' }, NOW)).toBe(
      1500,
    );
  });

  it('is null when nothing says, or what is said cannot be read', () => {
    expect(retryAfterMsFrom(undefined, NOW)).toBeNull();
    expect(retryAfterMsFrom({}, NOW)).toBeNull();
    expect(retryAfterMsFrom({ 'retry-after': 'soon', 'x-ratelimit-reset-requests': 'later' }, NOW)).toBeNull();
  });
});
