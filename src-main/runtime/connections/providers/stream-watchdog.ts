import { ProviderError } from './provider-error';
import type { StreamTimeouts } from './provider-types';

/**
 * Watches one model call for silence: first the wait for the first token, then the gaps between the
 * parts of the answer. When either runs out it calls `onTimeout` once with a `timed_out` error.
 */
export interface StreamWatchdog {
  /** A part arrived; `token` when it carries the answer (text, reasoning, a tool call, the finish). */
  saw(token: boolean): void;
  /** The error it timed out with, if it did. */
  readonly timedOut: ProviderError | null;
  stop(): void;
}

export function startStreamWatchdog(
  timeouts: StreamTimeouts | undefined,
  onTimeout: (error: ProviderError) => void,
): StreamWatchdog {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let answering = false;
  let timedOut: ProviderError | null = null;
  const arm = (ms: number, error: () => ProviderError) => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = error();
      onTimeout(timedOut);
    }, ms);
  };
  if (timeouts !== undefined) arm(timeouts.firstTokenMs, () => firstTokenTimeout(timeouts.firstTokenMs));
  return {
    saw(token) {
      if (timeouts === undefined || timedOut !== null) return;
      if (!answering && !token) return;
      answering = true;
      arm(timeouts.idleMs, () => idleTimeout(timeouts.idleMs));
    },
    get timedOut() {
      return timedOut;
    },
    stop() {
      clearTimeout(timer);
    },
  };
}

function firstTokenTimeout(ms: number): ProviderError {
  return new ProviderError(
    'timed_out',
    `The provider sent nothing for ${seconds(ms)} after the request (the connection's first-token timeout); it may be overloaded, or still loading the model.`,
  );
}

function idleTimeout(ms: number): ProviderError {
  return new ProviderError(
    'timed_out',
    `The provider stopped sending its answer: nothing arrived for ${seconds(ms)} (the connection's idle timeout).`,
  );
}

/** `120 s`, `1.5 s`. */
export function seconds(ms: number): string {
  const value = ms / 1000;
  return `${Number.isInteger(value) ? value : value.toFixed(1)} s`;
}
