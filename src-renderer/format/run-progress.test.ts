import { describe, expect, it } from 'vitest';
import { runProgressText } from './run-progress';

describe('runProgressText', () => {
  it('counts the wait for the provider up from when the request went out', () => {
    const waiting = { phase: 'waiting_for_provider', attempt: 1, maxAttempts: 4, since: 10_000 } as const;
    expect(runProgressText(waiting, 10_400)).toBe('Waiting for the provider — 0 s');
    expect(runProgressText(waiting, 22_000)).toBe('Waiting for the provider — 12 s');
    expect(runProgressText(waiting, 135_000)).toBe('Waiting for the provider — 2 min 5 s');
    expect(runProgressText({ ...waiting, attempt: 2 }, 13_000)).toBe('Waiting for the provider (attempt 2 of 4) — 3 s');
    // A client clock behind the host's never shows a negative wait.
    expect(runProgressText(waiting, 9_000)).toBe('Waiting for the provider — 0 s');
  });

  it('counts a retry down to when it resumes, with the attempt and the reason', () => {
    const retrying = {
      phase: 'retrying',
      attempt: 2,
      maxAttempts: 4,
      reason: 'rate_limited',
      since: 0,
      resumeAt: 8_000,
    } as const;
    expect(runProgressText(retrying, 0)).toBe('Retrying (attempt 2 of 4) after a rate limit — resumes in 8 s');
    expect(runProgressText(retrying, 7_500)).toBe('Retrying (attempt 2 of 4) after a rate limit — resumes in 1 s');
    expect(runProgressText({ ...retrying, reason: 'server_error' }, 8_000)).toBe(
      'Retrying (attempt 2 of 4) after a server error — resuming now',
    );
    expect(runProgressText({ ...retrying, reason: 'unreachable', attempt: 4 }, 0)).toContain(
      'attempt 4 of 4) after a network error',
    );
  });
});
