import { chmodSync, closeSync, fchmodSync, mkdirSync, openSync, statSync } from 'node:fs';

/**
 * The data directory is private to its owner, as `~/.ssh` and `~/.codex` are: the folder 0700 and the
 * files Cairn keeps at its top (databases with their `-wal`/`-shm`, secrets, token, lock) 0600.
 * Modes are set exactly, whatever the umask, and a folder or file an older Cairn left readable by
 * others is tightened at start. Never recursive: `agents/` and `worktrees/` hold programs and the
 * person's files, whose modes are theirs.
 */

const PRIVATE_DIR = 0o700;
const PRIVATE_FILE = 0o600;

/** Creates the data directory (0700) or takes group's and others' rights from an existing one. */
export function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
  tighten(dir, PRIVATE_DIR);
}

/**
 * Creates `path` empty with mode 0600, or tightens it when it exists. An existing file is never
 * opened (only chmod by path): closing any handle on the lock file would drop this process's lock.
 */
export function makePrivateFile(path: string): void {
  let fd: number;
  try {
    fd = openSync(path, 'wx', PRIVATE_FILE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    tighten(path, PRIVATE_FILE);
    return;
  }
  try {
    if (process.platform !== 'win32') fchmodSync(fd, PRIVATE_FILE);
  } finally {
    closeSync(fd);
  }
}

/** Tightens `path` to 0600 when it exists (a database's `-wal`/`-shm` left by an earlier start). */
export function tightenPrivateFile(path: string): void {
  tighten(path, PRIVATE_FILE);
}

/** A SQLite database at the data directory's top, with its `-wal` and `-shm` (SQLite gives those the database's mode). */
export function makePrivateDatabase(path: string): void {
  makePrivateFile(path);
  tightenPrivateFile(`${path}-wal`);
  tightenPrivateFile(`${path}-shm`);
}

function tighten(path: string, mode: number): void {
  if (process.platform === 'win32') return;
  const stats = statSync(path, { throwIfNoEntry: false });
  if (stats === undefined || (stats.mode & 0o777 & ~mode) === 0) return;
  try {
    chmodSync(path, stats.mode & 0o7777 & mode);
  } catch {
    // Not ours to change (another owner, a read-only mount): what opens it next says what is wrong.
  }
}
