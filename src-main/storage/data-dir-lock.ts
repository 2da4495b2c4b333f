import { randomUUID } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

export const LOCK_FILE = 'cairn.lock';

interface LockOwner {
  readonly pid: number;
  readonly hostname: string;
  readonly lockId: string;
  readonly acquiredAt: string;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly ownerPid: number,
  ) {
    super(
      `The data directory ${dataDir} is already in use by another Cairn host (process ${ownerPid}). ` +
        'Close that one first, or choose another directory with --data-dir.',
    );
    this.name = 'DataDirLockedError';
  }
}

export interface DataDirLock {
  readonly path: string;
  /** Whether the lock was taken over from a process that had died. */
  readonly tookOverFromPid: number | null;
  release(): void;
}

/**
 * Takes exclusive ownership of a data directory: a second host fails at once with the owner's pid;
 * a lock left by a dead process is taken over.
 */
export function acquireDataDirLock(dataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, LOCK_FILE);
  const owner: LockOwner = {
    pid: process.pid,
    hostname: hostname(),
    lockId: randomUUID(),
    acquiredAt: new Date().toISOString(),
  };
  let tookOverFromPid: number | null = null;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    if (tryCreate(path, owner)) {
      return { path, tookOverFromPid, release: () => releaseIfOurs(path, owner.lockId) };
    }
    const existing = readOwner(path);
    if (existing !== null && existing.hostname === owner.hostname && isAlive(existing.pid)) {
      throw new DataDirLockedError(dataDir, existing.pid);
    }
    tookOverFromPid = existing?.pid ?? null;
    removeQuietly(path);
  }
  const existing = readOwner(path);
  throw new DataDirLockedError(dataDir, existing?.pid ?? -1);
}

function tryCreate(path: string, owner: LockOwner): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, JSON.stringify(owner));
  } finally {
    closeSync(fd);
  }
  return true;
}

function readOwner(path: string): LockOwner | null {
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (
      typeof parsed === 'object' &&
      parsed !== null &&
      'pid' in parsed &&
      typeof parsed.pid === 'number' &&
      'hostname' in parsed &&
      typeof parsed.hostname === 'string' &&
      'lockId' in parsed &&
      typeof parsed.lockId === 'string'
    ) {
      return { pid: parsed.pid, hostname: parsed.hostname, lockId: parsed.lockId, acquiredAt: '' };
    }
    return null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function releaseIfOurs(path: string, lockId: string): void {
  if (readOwner(path)?.lockId === lockId) removeQuietly(path);
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
