/**
 * Why a data directory could not be opened, as a message for the person starting Cairn: it names
 * the file and says what to do. The entries (serve.ts, Electron main) print or show the message
 * alone, never a stack trace.
 */
export type DataDirProblem =
  'locked' | 'lock_path_not_a_file' | 'read_only_directory' | 'read_only_database' | 'damaged_database';

export class DataDirError extends Error {
  constructor(
    readonly problem: DataDirProblem,
    /** The file or folder the problem is about. */
    readonly path: string,
    message: string,
  ) {
    super(message);
    this.name = 'DataDirError';
  }
}

export interface LockOwner {
  readonly pid: number;
  /** ISO time the owner took the lock. */
  readonly startedAt: string;
  readonly hostname: string;
}

export class DataDirLockedError extends DataDirError {
  constructor(
    readonly dataDir: string,
    /** Who wrote that they hold it, for the message only; null when they have not said yet. */
    readonly owner: LockOwner | null,
  ) {
    const who =
      owner === null
        ? 'another Cairn host'
        : `another Cairn host (process ${owner.pid}${owner.hostname === '' ? '' : ` on ${owner.hostname}`}, started ${owner.startedAt})`;
    super(
      'locked',
      dataDir,
      `The data directory ${dataDir} is already in use by ${who}. ` +
        'Close that one first, or choose another directory with --data-dir.',
    );
    this.name = 'DataDirLockedError';
  }
}
