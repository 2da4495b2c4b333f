#!/usr/bin/env node
/**
 * Checks, before `npm start` runs the headless host and before `npm test` runs anything, that
 * better-sqlite3's native module loads in this Node. Without it nothing in Cairn works, and the
 * failure would otherwise surface as a stack trace deep inside a test or the host's startup.
 *
 * Usage: node scripts/preflight.mjs   (exit 0 quietly-ish when fine, 1 with a message when not)
 */
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const REBUILD =
  'Rebuild it with `npm rebuild better-sqlite3` (it downloads a prebuilt binary, or compiles one, which needs python3, make and a C++ compiler), or reinstall with `rm -rf node_modules && npm install`.';

/** A message for a person, from the error that loading better-sqlite3 threw. Pure, so it is tested. */
export function explainSqliteFailure(error, nodeVersion = process.version) {
  const detail = error instanceof Error ? error.message.split('\n')[0] : String(error);
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  let what;
  if (code === 'MODULE_NOT_FOUND' && /['"]better-sqlite3['"]/.test(detail)) {
    what = 'better-sqlite3 is not installed. Run `npm install` first.';
  } else if (/Could not locate the bindings file/.test(detail)) {
    what = `better-sqlite3 is installed but its native module was never built (its install script did not run or failed). ${REBUILD}`;
  } else if (/NODE_MODULE_VERSION|compiled against a different Node\.js version/.test(detail)) {
    what = `better-sqlite3's native module was built for another Node.js (or for Electron), not for this Node ${nodeVersion}. ${REBUILD}`;
  } else {
    what = `better-sqlite3's native module does not load in Node ${nodeVersion}. ${REBUILD}`;
  }
  return `Cairn cannot start: ${what}\n  (${detail})`;
}

/** Loads better-sqlite3 as the project would and runs one query. */
export function checkNativeSqlite(projectDir = ROOT) {
  try {
    const Database = createRequire(join(projectDir, 'package.json'))('better-sqlite3');
    const db = new Database(':memory:');
    try {
      db.prepare('select 1').get();
    } finally {
      db.close();
    }
    return { ok: true };
  } catch (error) {
    return { ok: false, message: explainSqliteFailure(error) };
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const result = checkNativeSqlite();
  if (!result.ok) {
    console.error(result.message);
    process.exit(1);
  }
  console.log('Preflight: better-sqlite3 loads in this Node.');
}
