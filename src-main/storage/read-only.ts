import { accessSync, constants, existsSync } from 'node:fs';
import { DataDirError } from './data-dir-errors';

const FS_DENIED = new Set(['EACCES', 'EPERM', 'EROFS']);
const SQLITE_DENIED = /^SQLITE_(READONLY|CANTOPEN|PERM|AUTH|IOERR_LOCK|IOERR_WRITE|IOERR_ACCESS)/;

/** Whether an error from the file system or SQLite means Cairn may not write where it must. */
export function isReadOnlyError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (FS_DENIED.has(code) || SQLITE_DENIED.test(code));
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

const ELSEWHERE = 'or start Cairn with another data directory (--data-dir, or CAIRN_DATA_DIR)';

/**
 * Turns a permission failure in `dataDir` (or on its database file `file`) into the message a
 * person can act on; null when the error is something else.
 */
export function describeFileSystemError(error: unknown, dataDir: string, file?: string): DataDirError | null {
  if (!isReadOnlyError(error)) return null;
  if (file !== undefined && existsSync(file) && !writable(file)) {
    return new DataDirError(
      'read_only_database',
      file,
      `Cairn's database ${file} is read-only, so Cairn cannot record anything. Make the file writable for your user (for example: chmod u+w "${file}"), ${ELSEWHERE}.`,
    );
  }
  return new DataDirError(
    'read_only_directory',
    dataDir,
    `Cairn cannot write to its data directory ${dataDir} (it is read-only or belongs to another user). Give your user write access to it, ${ELSEWHERE}.`,
  );
}
