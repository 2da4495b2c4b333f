import { DataDirLockedError } from '../data-dir-errors';
import { acquireDataDirLock } from '../data-dir-lock';

/**
 * One of several starts racing for a data directory (data-dir-lock.test.ts). Prints `trying` just
 * before it locks, then `locked` (and holds the lock until killed) or `refused: <message>`.
 *
 * Usage: node --import tsx lock-racer.ts <dataDir>
 */
const [dataDir = ''] = process.argv.slice(2);
try {
  const lock = acquireDataDirLock(dataDir, { beforeLocking: () => process.stdout.write('trying\n') });
  process.stdout.write('locked\n');
  // Held, not merely kept alive: a lock nobody references is collected, and its database closed with it.
  setInterval(() => void lock, 1000);
} catch (error) {
  process.stdout.write(
    `${error instanceof DataDirLockedError ? 'refused' : 'failed'}: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(0);
}
