import type { RetryReason, RunProgress } from '../../src-shared/run-progress';

const REASONS: Readonly<Record<RetryReason, string>> = {
  rate_limited: 'a rate limit',
  server_error: 'a server error',
  unreachable: 'a network error',
};

/**
 * What a running turn waits on, in words, at `now`: "Waiting for the provider — 12 s", or
 * "Retrying (attempt 2 of 4) after a rate limit — resumes in 8 s".
 */
export function runProgressText(progress: RunProgress, now: number): string {
  switch (progress.phase) {
    case 'waiting_for_provider': {
      const attempt = progress.attempt > 1 ? ` (attempt ${progress.attempt} of ${progress.maxAttempts})` : '';
      return `Waiting for the provider${attempt} — ${duration(Math.floor(Math.max(0, now - progress.since) / 1000))}`;
    }
    case 'retrying': {
      const left = Math.ceil(Math.max(0, progress.resumeAt - now) / 1000);
      const when = left === 0 ? 'resuming now' : `resumes in ${duration(left)}`;
      return `Retrying (attempt ${progress.attempt} of ${progress.maxAttempts}) after ${REASONS[progress.reason]} — ${when}`;
    }
  }
}

/** `12 s`, `2 min 5 s`. */
function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
}
