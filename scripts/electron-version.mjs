/**
 * The Electron version this project builds for, known even where the `electron` package is absent.
 *
 * `electron` is an optional dependency: where its binary cannot be downloaded, npm drops the package
 * and the install still succeeds. The build (electron-vite reads the major version to pick its Node
 * and Chrome targets and the main bundle's module format) and the packaging config still need the
 * version, so it is read from, in order: the installed package, the version npm locked in
 * package-lock.json, and the range declared in package.json.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const VERSION = /^(\d+)\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

/** The first usable version among what was found; null when none is. Pure, so it is tested alone. */
export function pickElectronVersion({ installed, locked, declared }) {
  for (const candidate of [installed, locked])
    if (typeof candidate === 'string' && VERSION.test(candidate)) return candidate;
  // A declared range such as "^40.8.5" or "~40.8.5": its lowest version is the one it certainly allows.
  const range = typeof declared === 'string' ? /^[\^~]?(\d+\.\d+\.\d+)$/.exec(declared.trim()) : null;
  return range?.[1] ?? null;
}

/** The major version ("40") of a full version, or null. */
export function majorOf(version) {
  return typeof version === 'string' ? (VERSION.exec(version)?.[1] ?? null) : null;
}

/** What the project says about Electron's version, read from disk. */
export function findElectronVersions(projectDir) {
  const pkg = readJson(join(projectDir, 'package.json'));
  return {
    installed: readJson(join(projectDir, 'node_modules', 'electron', 'package.json'))?.version ?? null,
    locked: readJson(join(projectDir, 'package-lock.json'))?.packages?.['node_modules/electron']?.version ?? null,
    declared:
      pkg?.optionalDependencies?.electron ?? pkg?.devDependencies?.electron ?? pkg?.dependencies?.electron ?? null,
  };
}

/** The Electron version for this project, or null when it says nothing usable. */
export function electronVersion(projectDir) {
  return pickElectronVersion(findElectronVersions(projectDir));
}

/**
 * Sets ELECTRON_MAJOR_VER, which electron-vite reads before it tries `electron/package.json`, unless
 * it is already set. Returns the value in force.
 */
export function ensureElectronMajorVersion(env, projectDir) {
  if (env.ELECTRON_MAJOR_VER) return env.ELECTRON_MAJOR_VER;
  const major = majorOf(electronVersion(projectDir));
  if (major === null)
    throw new Error('The Electron version is unknown: package.json declares no `electron` dependency with a version.');
  env.ELECTRON_MAJOR_VER = major;
  return major;
}
