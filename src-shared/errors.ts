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

export interface OperationError {
  readonly code: ErrorCode;
  readonly message: string;
}

export type Outcome<T> =
  { readonly ok: true; readonly result: T } | { readonly ok: false; readonly error: OperationError };

export function ok<T>(result: T): Outcome<T> {
  return { ok: true, result };
}

export function fail(code: ErrorCode, message: string): { ok: false; error: OperationError } {
  return { ok: false, error: { code, message } };
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}
