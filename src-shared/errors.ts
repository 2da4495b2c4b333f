/** The closed set of error codes an operation can answer with. Messages are written for people. */
export const ERROR_CODES = [
  'invalid_input',
  'not_found',
  'session_archived',
  'session_busy',
  'operation_conflict',
  'revision_conflict',
  'candidate_set_stale',
  'operation_unavailable',
  'provider_error',
  'host_draining',
  'storage_damaged',
  'internal_failure',
  /** A paired device asked for what stays on the desktop (pairing devices, connections and keys, Full mode). */
  'device_forbidden',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface OperationError<C extends ErrorCode = ErrorCode> {
  readonly code: C;
  readonly message: string;
}

export type Success<T> = { readonly ok: true; readonly result: T };

export type Failure<C extends ErrorCode = ErrorCode> = { readonly ok: false; readonly error: OperationError<C> };

/**
 * What an operation or a service answers: its result, or an error whose code is one of `C`. A
 * service names the codes it can really return, and an operation's handler may return only the codes
 * the operation declares (`DeclaredError<N>` in src-shared/operations), so an undeclared code is a
 * type error.
 */
export type Outcome<T, C extends ErrorCode = ErrorCode> = Success<T> | Failure<C>;

export function ok<T>(result: T): Success<T> {
  return { ok: true, result };
}

/** A failure with the literal code given, so the codes a function can return are inferred. */
export function fail<const C extends ErrorCode>(code: C, message: string): Failure<C> {
  return { ok: false, error: { code, message } };
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}
