/** Why a model call failed, in the closed set the runtime and the UI act on. */
export type ProviderErrorClass =
  | 'bad_key'
  | 'model_not_found'
  | 'rate_limited'
  | 'context_too_long'
  | 'unreachable'
  | 'server_error'
  | 'usage_limit'
  | 'bad_request'
  /** The provider sent nothing before the first-token timeout, or went silent mid-answer for the idle timeout. */
  | 'timed_out'
  | 'aborted';

/** Classes worth retrying as they are: the same request may well succeed later. */
const TRANSIENT: ReadonlySet<ProviderErrorClass> = new Set(['rate_limited', 'unreachable', 'server_error']);

export interface ProviderErrorDetails {
  /** The HTTP status the provider answered with; null when there was no answer. */
  readonly status?: number | null;
  /** How long the provider asked us to wait before retrying. */
  readonly retryAfterMs?: number | null;
}

/**
 * A failed model call. The message is written for the person reading it and never contains the API
 * key. `transient` says whether retrying the same request later may succeed.
 */
export class ProviderError extends Error {
  readonly transient: boolean;
  readonly retryAfterMs: number | null;
  readonly status: number | null;

  constructor(
    readonly errorClass: ProviderErrorClass,
    message: string,
    details: ProviderErrorDetails = {},
  ) {
    super(message);
    this.name = 'ProviderError';
    this.transient = TRANSIENT.has(errorClass);
    this.retryAfterMs = details.retryAfterMs ?? null;
    this.status = details.status ?? null;
  }
}
