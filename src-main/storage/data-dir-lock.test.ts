import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../testing/host-fixture';
import { acquireDataDirLock, DataDirLockedError, LOCK_FILE } from './data-dir-lock';

function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('data directory lock', () => {
  const dir = useTempDirs();

  it('refuses a second owner at once, naming the directory and the owning process', () => {
    const path = dir();
    const lock = acquireDataDirLock(path);
    let refused: unknown;
    try {
      acquireDataDirLock(path);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(DataDirLockedError);
    expect((refused as Error).message).toContain(path);
    expect((refused as Error).message).toContain(`process ${process.pid}`);
    lock.release();
    expect(existsSync(join(path, LOCK_FILE))).toBe(false);
  });

  it('takes over a lock left by a dead process', () => {
    const path = dir();
    const pid = deadPid();
    writeFileSync(join(path, LOCK_FILE), JSON.stringify({ pid, hostname: hostname(), lockId: 'old', acquiredAt: '' }));
    const lock = acquireDataDirLock(path);
    expect(lock.tookOverFromPid).toBe(pid);
    expect(JSON.parse(readFileSync(join(path, LOCK_FILE), 'utf8')).pid).toBe(process.pid);
    lock.release();
  });

  it('takes over an unreadable lock file', () => {
    const path = dir();
    writeFileSync(join(path, LOCK_FILE), 'not json');
    const lock = acquireDataDirLock(path);
    expect(lock.tookOverFromPid).toBeNull();
    lock.release();
  });

  it('release leaves a lock that another owner took alone', () => {
    const path = dir();
    const lock = acquireDataDirLock(path);
    writeFileSync(join(path, LOCK_FILE), JSON.stringify({ pid: process.pid, hostname: hostname(), lockId: 'someone-else' }));
    lock.release();
    expect(existsSync(join(path, LOCK_FILE))).toBe(true);
  });
});
