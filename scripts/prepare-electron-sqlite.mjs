#!/usr/bin/env node
/**
 * Produces native/electron/better_sqlite3.node: better-sqlite3 built for the installed Electron's ABI,
 * kept apart from node_modules/better-sqlite3 (built for Node, which the tests use). Electron main
 * passes it to better-sqlite3 through the `nativeBinding` option, so one checkout serves both.
 *
 * How: copy node_modules/better-sqlite3 (without its Node build) to a temporary folder, run its
 * bundled prebuild-install for Electron there (a download from GitHub releases), and if that fails
 * build it from source with node-gyp against Electron's headers. node_modules is never touched.
 *
 * Usage: node scripts/prepare-electron-sqlite.mjs [--force]
 */
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const PROJECT_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const ELECTRON_HEADERS_URL = 'https://electronjs.org/headers';
const DOWNLOAD_TIMEOUT_MS = 3 * 60_000;
const COMPILE_TIMEOUT_MS = 20 * 60_000;

export class PrepareError extends Error {
  constructor(message) {
    super(message);
    this.name = 'PrepareError';
  }
}

/** Where the Electron build lives, and the note of what it was built for. */
export function electronSqlitePaths(projectDir) {
  const dir = join(projectDir, 'native', 'electron');
  return { dir, binary: join(dir, 'better_sqlite3.node'), info: join(dir, 'build-info.json') };
}

const VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

/** A version string fit to pass to the build tools, or null. */
export function validVersion(value) {
  return typeof value === 'string' && VERSION.test(value) ? value : null;
}

/** The installed versions of electron and better-sqlite3 (null when not installed or unreadable). */
export function installedVersions(projectDir) {
  const read = (name) => {
    try {
      return validVersion(
        JSON.parse(readFileSync(join(projectDir, 'node_modules', name, 'package.json'), 'utf8')).version,
      );
    } catch {
      return null;
    }
  };
  let abi = null;
  try {
    abi = readFileSync(join(projectDir, 'node_modules', 'electron', 'abi_version'), 'utf8').trim() || null;
  } catch {
    abi = null;
  }
  return { electron: read('electron'), betterSqlite3: read('better-sqlite3'), electronAbi: abi };
}

/** What the binary must have been built for to be usable now. */
export function expectedBuildInfo({ electronVersion, betterSqlite3Version, platform, arch }) {
  return { electron: electronVersion, betterSqlite3: betterSqlite3Version, platform, arch };
}

/** Whether a recorded build note matches what is installed now (anything else means rebuild). */
export function isBuildCurrent(recorded, expected) {
  if (typeof recorded !== 'object' || recorded === null) return false;
  return Object.entries(expected).every(([key, value]) => recorded[key] === value);
}

/** Whether native/electron holds a binary built for the installed electron and better-sqlite3. */
export function electronSqliteStatus(projectDir, platform = process.platform, arch = process.arch) {
  const versions = installedVersions(projectDir);
  const paths = electronSqlitePaths(projectDir);
  if (versions.electron === null || versions.betterSqlite3 === null)
    return { current: false, versions, paths, expected: null };
  const expected = expectedBuildInfo({
    electronVersion: versions.electron,
    betterSqlite3Version: versions.betterSqlite3,
    platform,
    arch,
  });
  let recorded = null;
  try {
    recorded = JSON.parse(readFileSync(paths.info, 'utf8'));
  } catch {
    recorded = null;
  }
  return { current: existsSync(paths.binary) && isBuildCurrent(recorded, expected), versions, paths, expected };
}

export function prebuildInstallArgs({ electronVersion, platform, arch }) {
  return ['--runtime=electron', `--target=${electronVersion}`, `--platform=${platform}`, `--arch=${arch}`, '--verbose'];
}

/** node-gyp against Electron's headers, cached apart from Node's (Electron and Node versions can collide). */
export function nodeGypArgs({ electronVersion, arch, home }) {
  return [
    'rebuild',
    '--release',
    `--target=${electronVersion}`,
    `--arch=${arch}`,
    `--dist-url=${ELECTRON_HEADERS_URL}`,
    `--devdir=${join(home, '.electron-gyp')}`,
  ];
}

/** Where node-gyp may be: the project's, then the one bundled with npm (beside npm_execpath or node). */
export function nodeGypCandidates({ projectDir, npmExecPath, execPath, platform }) {
  const gyp = ['node_modules', 'node-gyp', 'bin', 'node-gyp.js'];
  const candidates = [join(projectDir, ...gyp)];
  if (npmExecPath) candidates.push(join(dirname(npmExecPath), '..', ...gyp));
  if (platform === 'win32') candidates.push(join(dirname(execPath), 'node_modules', 'npm', ...gyp));
  else candidates.push(join(dirname(execPath), '..', 'lib', 'node_modules', 'npm', ...gyp));
  return candidates;
}

/** A copy of better-sqlite3's sources, without its Node build, to build in. */
function copySources(sourceDir, workDir) {
  const target = join(workDir, 'better-sqlite3');
  cpSync(sourceDir, target, {
    recursive: true,
    filter: (path) => {
      const relativeParts = path.slice(sourceDir.length).split(/[\\/]/).filter(Boolean);
      return relativeParts[0] !== 'build' && relativeParts[0] !== 'node_modules';
    },
  });
  return target;
}

/** Runs a tool with its output shown; returns null on success or what went wrong. */
function run(label, command, args, options) {
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.error) return `${label} could not run: ${result.error.message}`;
  if (result.status !== 0) return `${label} exited with ${result.status ?? result.signal}`;
  return null;
}

/**
 * Makes sure native/electron/better_sqlite3.node matches the installed Electron; builds it when it
 * does not. Throws a PrepareError with a message for people when it cannot.
 */
export function prepareElectronSqlite({ projectDir = PROJECT_DIR, force = false, log = console.log } = {}) {
  const status = electronSqliteStatus(projectDir);
  const { versions, paths } = status;
  if (versions.electron === null)
    throw new PrepareError('The electron package is not installed (node_modules/electron). Run npm install first.');
  if (versions.betterSqlite3 === null)
    throw new PrepareError('better-sqlite3 is not installed (node_modules/better-sqlite3). Run npm install first.');
  if (status.current && !force) {
    log(`better-sqlite3 ${versions.betterSqlite3} for Electron ${versions.electron} is ready: ${paths.binary}`);
    return paths.binary;
  }
  const what = `better-sqlite3 ${versions.betterSqlite3} for Electron ${versions.electron}${versions.electronAbi ? ` (ABI ${versions.electronAbi})` : ''}`;
  log(`Preparing ${what}…`);

  const sourceDir = join(projectDir, 'node_modules', 'better-sqlite3');
  const workDir = mkdtempSync(join(tmpdir(), 'cairn-electron-sqlite-'));
  const problems = [];
  try {
    const buildDir = copySources(sourceDir, workDir);
    const built = join(buildDir, 'build', 'Release', 'better_sqlite3.node');
    const common = { electronVersion: versions.electron, platform: process.platform, arch: process.arch };

    let prebuildInstall = null;
    try {
      prebuildInstall = createRequire(join(sourceDir, 'package.json')).resolve('prebuild-install/bin.js');
    } catch {
      problems.push('prebuild-install (a dependency of better-sqlite3) is not installed');
    }
    if (prebuildInstall !== null) {
      log('Downloading the prebuilt binary (github.com)…');
      const problem = run('prebuild-install', process.execPath, [prebuildInstall, ...prebuildInstallArgs(common)], {
        cwd: buildDir,
        timeout: DOWNLOAD_TIMEOUT_MS,
      });
      if (problem !== null || !existsSync(built))
        problems.push(`the prebuilt download failed (${problem ?? 'no binary produced'})`);
    }

    if (!existsSync(built)) {
      const gyp = nodeGypCandidates({
        projectDir,
        npmExecPath: process.env.npm_execpath,
        execPath: process.execPath,
        platform: process.platform,
      }).find(existsSync);
      if (gyp === undefined) {
        problems.push('node-gyp was not found to build from source');
      } else {
        log('Building from source against Electron headers (electronjs.org)…');
        const problem = run('node-gyp', process.execPath, [gyp, ...nodeGypArgs({ ...common, home: homedir() })], {
          cwd: buildDir,
          timeout: COMPILE_TIMEOUT_MS,
        });
        if (problem !== null || !existsSync(built))
          problems.push(`the source build failed (${problem ?? 'no binary produced'})`);
      }
    }

    if (!existsSync(built)) {
      throw new PrepareError(
        `Could not prepare ${what}: ${problems.join('; ')}. ` +
          'This needs network access to github.com (prebuilt binaries), or to electronjs.org plus a C++ toolchain (source build). ' +
          'The Node build in node_modules/better-sqlite3 is untouched; the headless host (npm run serve) still works.',
      );
    }
    mkdirSync(paths.dir, { recursive: true });
    const temporary = `${paths.binary}.${process.pid}.tmp`;
    copyFileSync(built, temporary);
    renameSync(temporary, paths.binary);
    writeFileSync(
      paths.info,
      `${JSON.stringify({ ...status.expected, electronAbi: versions.electronAbi, builtAt: new Date().toISOString() }, null, 2)}\n`,
    );
    log(`Ready: ${paths.binary}`);
    return paths.binary;
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

function isMainModule() {
  return process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
}

if (isMainModule()) {
  const args = process.argv.slice(2);
  const unknown = args.filter((arg) => arg !== '--force');
  if (unknown.length > 0) {
    console.error(`Usage: node scripts/prepare-electron-sqlite.mjs [--force]  (unknown: ${unknown.join(' ')})`);
    process.exit(2);
  }
  try {
    prepareElectronSqlite({ force: args.includes('--force') });
  } catch (error) {
    console.error(`cairn: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
