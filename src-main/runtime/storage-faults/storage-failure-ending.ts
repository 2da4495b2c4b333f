import type { ChangeEventBody } from '../../../src-shared/events';
import { STORAGE_FAILED, STORAGE_FULL } from '../../../src-shared/model';
import { storageFailureOf } from '../../storage/storage-errors';

/** How a run ends when its record could not be written (recorded once a write succeeds again). */
export interface StorageFailureEnding {
  readonly status: 'failed';
  readonly terminalReason: typeof STORAGE_FULL | typeof STORAGE_FAILED;
  readonly errorCode: typeof STORAGE_FULL | typeof STORAGE_FAILED;
  readonly errorMessage: string;
}

/** True when `error` is a failed database write (disk full, I/O error, read-only database, …). */
export function isStorageFailure(error: unknown): boolean {
  return storageFailureOf(error) !== null;
}

export function storageFailureEnding(error: unknown): StorageFailureEnding {
  const full = storageFailureOf(error) === 'full';
  const cause = error instanceof Error ? error.message : String(error);
  const code =
    typeof error === 'object' && error !== null && 'code' in error
      ? ` (${String((error as { code: unknown }).code)})`
      : '';
  const failureClass = full ? STORAGE_FULL : STORAGE_FAILED;
  // The renderer says what happened and what to do; this detail is what the database said.
  return {
    status: 'failed',
    terminalReason: failureClass,
    errorCode: failureClass,
    errorMessage: `Could not write to the database: ${cause}${code}.`,
  };
}

/** What the person is told at once, while the record may not be writable yet. */
export function storageFailureNotice(sessionId: string, ending: StorageFailureEnding): ChangeEventBody {
  return {
    kind: 'host.notice',
    code: ending.errorCode,
    sessionId,
    message:
      ending.errorCode === STORAGE_FULL
        ? 'The disk is full: Cairn could not save a turn, so it stopped it. Free some disk space; the turn can then be retried.'
        : 'Cairn could not write to its database, so it stopped a turn. The details are in the host log.',
  };
}
