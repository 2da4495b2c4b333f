/**
 * What a failed database write says about the storage. better-sqlite3 puts SQLite's result code on
 * the error it throws (`SQLITE_FULL`, `SQLITE_IOERR_WRITE`, …); anything else thrown is not a
 * storage failure but a bug.
 */
export type StorageFailure = 'full' | 'failed';

export function storageFailureOf(error: unknown): StorageFailure | null {
  const code =
    typeof error === 'object' && error !== null && 'code' in error ? (error as { code: unknown }).code : undefined;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return null;
  return code === 'SQLITE_FULL' ? 'full' : 'failed';
}
