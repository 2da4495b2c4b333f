import Database from 'better-sqlite3';
import { chmodSync, lstatSync, readFileSync, renameSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { DataDirError, DataDirLockedError, type LockOwner } from './data-dir-errors';
import { makePrivateDir, makePrivateFile } from './private-files';
import { describeFileSystemError, isReadOnlyError } from './read-only';

export const LOCK_FILE = 'cairn.lock';
/** Who holds the lock, for messages only; removed by a clean release, so it also marks an unclean end. */
export const OWNER_FILE = 'cairn.lock.owner';

export interface DataDirLock {
  readonly path: string;
  /** The previous owner, when it ended without releasing the lock (a crash, a kill, a power cut). */
  readonly previousOwnerEndedUncleanly: LockOwner | null;
  /**
   * Gives the lock up. `clean: false` keeps the owner note, so the next owner checks the database
   * as after a crash (used when opening failed half-way).
   */
  release(options?: { clean: boolean }): void;
}

export interface LockOptions {
  /** For the Electron build: the path of a better-sqlite3 binary built for Electron's ABI. */
  readonly nativeBinding?: string;
  /** Tests: runs after the lock file is opened, before it is locked (two starts meeting there). */
  readonly beforeLocking?: () => void;
}

/**
 * Takes exclusive ownership of a data directory for this process's lifetime. The lock is SQLite's
 * own exclusive lock on `cairn.lock` (an OS file lock, held by an open write transaction), so the
 * operating system releases it the moment the owner dies, however it dies: a dead owner never
 * blocks, a live one always does, in another process or in this one. The pid and start time written
 * beside it only make the refusal readable; nothing is decided from them.
 *
 * The lock file itself is never deleted or replaced (a deleted lock file lets two owners lock two
 * different files) and never opened by anything but SQLite: on POSIX, closing any other handle on it
 * would drop this process's lock.
 */
export function acquireDataDirLock(dataDir: string, options: LockOptions = {}): DataDirLock {
  const path = join(dataDir, LOCK_FILE);
  try {
    makePrivateDir(dataDir);
    refuseNonFile(path);
    makePrivateFile(path);
  } catch (error) {
    throw error instanceof DataDirError ? error : (describeFileSystemError(error, dataDir) ?? error);
  }
  const db = lockDatabase(dataDir, path, options);
  const ownerPath = join(dataDir, OWNER_FILE);
  const previous = readOwner(ownerPath, true);
  try {
    writeOwner(ownerPath, { pid: process.pid, startedAt: new Date().toISOString(), hostname: hostname() });
  } catch (error) {
    db.close();
    throw describeFileSystemError(error, dataDir) ?? error;
  }
  let released = false;
  return {
    path,
    previousOwnerEndedUncleanly: previous,
    release({ clean } = { clean: true }) {
      if (released) return;
      released = true;
      try {
        if (clean) unlinkSync(ownerPath);
      } catch (error) {
        // Already gone (the folder was removed under us): released all the same.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      } finally {
        db.close();
      }
    },
  };
}

function refuseNonFile(path: string): void {
  let stats;
  try {
    stats = lstatSync(path);
  } catch {
    return;
  }
  if (!stats.isFile()) {
    const what = stats.isDirectory() ? 'a folder' : 'not a regular file';
    throw new DataDirError(
      'lock_path_not_a_file',
      path,
      `${path} is ${what}, but Cairn keeps its lock file there. Move or delete it, then start Cairn again.`,
    );
  }
}

/**
 * How long a start that found nobody owning the directory waits for the exclusive lock. Starts racing
 * for it each hold SQLite's shared lock for a moment on the way; the one that reached the lock first
 * waits for the others' to go, while they, refused, let theirs go. Only a loser of such a race waits
 * this long for its refusal: a start that meets an owner is refused at once (the probe below).
 */
const RACE_WAIT_MS = 10_000;

function lockDatabase(dataDir: string, path: string, options: LockOptions): Database.Database {
  for (let attempt = 0; ; attempt += 1) {
    let db: Database.Database | null = null;
    try {
      db = new Database(path, {
        timeout: 0,
        ...(options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding }),
      });
      // Normal locking mode: a failed attempt lets its shared lock go (EXCLUSIVE locking mode kept it,
      // so two starts at the same instant each blocked the other and neither came up).
      // An owner holds the exclusive lock, and so a shared one cannot be had: refused at once.
      db.pragma('schema_version');
      options.beforeLocking?.();
      db.pragma(`busy_timeout = ${RACE_WAIT_MS}`);
      db.pragma('journal_mode = MEMORY');
      db.exec('BEGIN EXCLUSIVE');
      return db;
    } catch (error) {
      db?.close();
      const code = (error as { code?: unknown }).code;
      if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED')
        throw new DataDirLockedError(dataDir, readOwner(join(dataDir, OWNER_FILE), false));
      if (code === 'SQLITE_NOTADB' && attempt === 0) {
        // A lock file from a Cairn before this one (a JSON note naming a pid) or any other stray
        // content. No live owner can hold it (SQLite read its header, so nobody had it locked); it
        // is emptied in place, never replaced, so the file everyone locks stays the same file.
        truncateSync(path, 0);
        continue;
      }
      if (isReadOnlyError(error)) throw describeFileSystemError(error, dataDir) ?? error;
      throw error;
    }
  }
}

function readOwner(path: string, anyContent: boolean): LockOwner | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && 'pid' in parsed && typeof parsed.pid === 'number') {
      const startedAt =
        'startedAt' in parsed && typeof parsed.startedAt === 'string' ? parsed.startedAt : 'at an unknown time';
      const host = 'hostname' in parsed && typeof parsed.hostname === 'string' ? parsed.hostname : '';
      return { pid: parsed.pid, startedAt, hostname: host };
    }
  } catch {
    // Half-written by an owner that died while writing it.
  }
  return anyContent ? { pid: -1, startedAt: 'at an unknown time', hostname: '' } : null;
}

function writeOwner(path: string, owner: LockOwner): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(owner), { mode: 0o600 });
  if (process.platform !== 'win32') chmodSync(temporary, 0o600);
  renameSync(temporary, path);
}
