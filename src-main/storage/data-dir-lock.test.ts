import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../testing/host-fixture';
import { testProgramArgs } from '../testing/test-programs';
import { waitFor } from '../testing/wait-for';
import { DataDirError, DataDirLockedError } from './data-dir-errors';
import { acquireDataDirLock, LOCK_FILE, OWNER_FILE } from './data-dir-lock';

function refusal(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    return error;
  }
  throw new Error('expected a refusal');
}

/** A separate Node process holding the lock the way a host does, until it is killed. */
function holderProcess(dataDir: string) {
  const script = `
    const Database = require(${JSON.stringify(createRequire(import.meta.url).resolve('better-sqlite3'))});
    const db = new Database(${JSON.stringify(join(dataDir, LOCK_FILE))}, { timeout: 0 });
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('journal_mode = MEMORY');
    db.exec('BEGIN EXCLUSIVE');
    process.stdout.write('held');
    setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    exited,
    held: () => waitFor(() => output.includes('held'), { message: 'the holder to take the lock' }),
  };
}

describe('data directory lock', () => {
  const dir = useTempDirs();

  it('refuses a second owner in the same process, naming the directory, the owning process and its start', () => {
    const path = dir();
    const lock = acquireDataDirLock(path);
    const refused = refusal(() => acquireDataDirLock(path));
    expect(refused).toBeInstanceOf(DataDirLockedError);
    const message = (refused as Error).message;
    expect(message).toContain(path);
    expect(message).toContain(`process ${process.pid}`);
    expect(message).toMatch(/started \d{4}-\d\d-\d\dT/);
    lock.release();
    // Released: the next owner gets it at once. The lock file itself is never deleted.
    expect(existsSync(join(path, LOCK_FILE))).toBe(true);
    acquireDataDirLock(path).release();
  });

  it('is released by the operating system when the owning process is killed', async () => {
    const path = dir();
    const holder = holderProcess(path);
    await holder.held();
    expect(refusal(() => acquireDataDirLock(path))).toBeInstanceOf(DataDirLockedError);
    holder.child.kill('SIGKILL');
    await holder.exited;
    acquireDataDirLock(path).release();
  });

  it('is not blocked by an owner note naming a live process that holds no lock, and reports the unclean end', () => {
    const path = dir();
    mkdirSync(path, { recursive: true });
    // The pid of a live process that is not a Cairn host (this test runner's parent, or pid 1).
    const live = { pid: process.ppid, startedAt: '2026-01-01T00:00:00.000Z', hostname: hostname() };
    writeFileSync(join(path, OWNER_FILE), JSON.stringify(live));
    const lock = acquireDataDirLock(path);
    expect(lock.previousOwnerEndedUncleanly).toEqual(live);
    expect(JSON.parse(readFileSync(join(path, OWNER_FILE), 'utf8'))).toMatchObject({ pid: process.pid });
    lock.release();
    expect(existsSync(join(path, OWNER_FILE))).toBe(false);
    const next = acquireDataDirLock(path);
    expect(next.previousOwnerEndedUncleanly).toBeNull();
    next.release();
  });

  it('takes over a lock file written by an earlier Cairn, even one naming a live process', () => {
    const path = dir();
    mkdirSync(path, { recursive: true });
    writeFileSync(
      join(path, LOCK_FILE),
      JSON.stringify({ pid: process.pid, hostname: hostname(), lockId: 'old', acquiredAt: '' }),
    );
    const lock = acquireDataDirLock(path);
    expect(refusal(() => acquireDataDirLock(path))).toBeInstanceOf(DataDirLockedError);
    lock.release();
  });

  it('keeps the owner note when released after a failed open, so the next start checks the database', () => {
    const path = dir();
    acquireDataDirLock(path).release({ clean: false });
    const next = acquireDataDirLock(path);
    expect(next.previousOwnerEndedUncleanly).toMatchObject({ pid: process.pid });
    next.release();
  });

  it('says so clearly when cairn.lock is a folder', () => {
    const path = dir();
    mkdirSync(join(path, LOCK_FILE), { recursive: true });
    const refused = refusal(() => acquireDataDirLock(path));
    expect(refused).toBeInstanceOf(DataDirError);
    expect(refused).toMatchObject({ problem: 'lock_path_not_a_file' });
    expect((refused as Error).message).toBe(
      `${join(path, LOCK_FILE)} is a folder, but Cairn keeps its lock file there. Move or delete it, then start Cairn again.`,
    );
  });

  it('gives exactly one of two starts racing for it, even while a third has the lock file open; the other is refused clearly', async () => {
    // Two starts at the same instant each take SQLite's shared lock on the way to the exclusive one;
    // each one's shared lock then blocks the other. A reader holding a shared lock while both try makes
    // that moment last: before the fix, both were refused and neither came up.
    for (let round = 1; round <= 2; round += 1) {
      const dataDir = dir();
      writeFileSync(join(dataDir, LOCK_FILE), '');
      const reader = new Database(join(dataDir, LOCK_FILE), { timeout: 0 });
      reader.exec('BEGIN');
      reader.prepare('SELECT count(*) FROM sqlite_master').get();
      const starts = [0, 1].map(() => {
        const child = spawn(process.execPath, [...testProgramArgs('src-main/storage/testing/lock-racer.ts'), dataDir], {
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        return {
          child,
          exited,
          output: () => output,
          outcome: () => /^(locked|refused|failed).*$/m.exec(output)?.[0] ?? null,
        };
      });
      try {
        // Each reaches the lock, or is refused on the way when the other already waits for it (that one holds it next).
        await waitFor(() => starts.every((start) => start.output().includes('trying') || start.outcome() !== null), {
          message: 'both starts to reach the lock',
          timeoutMs: 40_000,
        });
        // Both are trying now: give each the moment to fail, as both did before the fix (a bound, not a wait for an event).
        await waitFor(() => starts.every((start) => start.outcome() !== null), { timeoutMs: 1500 }).catch(() => null);
        reader.exec('ROLLBACK');
        reader.close();
        await waitFor(() => starts.every((start) => start.outcome() !== null), {
          message: `both starts to say how they fared (round ${round})`,
          timeoutMs: 40_000,
        });
        const outcomes = starts.map((start) => start.outcome() ?? '').sort();
        expect(outcomes[0], `round ${round}`).toBe('locked');
        expect(outcomes[1], `round ${round}`).toContain(
          `refused: The data directory ${dataDir} is already in use by another Cairn host`,
        );
      } finally {
        if (reader.open) reader.close();
        for (const start of starts) start.child.kill('SIGKILL');
        await Promise.all(starts.map((start) => start.exited));
      }
    }
  }, 120_000);
});
