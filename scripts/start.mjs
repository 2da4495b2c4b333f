#!/usr/bin/env node
/**
 * `npm start`. Where the Electron binary is installed: make sure better-sqlite3 is built for
 * Electron (scripts/prepare-electron-sqlite.mjs), build out/ when it is missing or older than the
 * sources, and open the desktop app. Where it is not (machines that cannot download it): say so in
 * one line, check that better-sqlite3 loads in this Node (scripts/preflight.mjs), build the app
 * when needed, and run the headless host, which prints its URL.
 * Arguments after `npm start --` go to the app (e.g. `--port 8080` for the headless host).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { electronSqliteStatus, PROJECT_DIR, prepareElectronSqlite } from './prepare-electron-sqlite.mjs';
import { checkNativeSqlite } from './preflight.mjs';

/** What the desktop build produces, and what it is built from. */
export const DESKTOP_OUTPUTS = ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html'];
export const DESKTOP_SOURCES = [
  'src-main',
  'src-preload',
  'src-renderer',
  'src-shared',
  'electron.vite.config.ts',
  'package.json',
];
/** The headless host runs built (out/main/serve.js, beside the desktop main) and serves the built renderer. */
export const HEADLESS_OUTPUTS = ['out/main/serve.js', 'out/renderer/index.html'];
export const HEADLESS_SOURCES = ['src-main', 'src-renderer', 'src-shared', 'electron.vite.config.ts', 'package.json'];

export const NO_ELECTRON_NOTE =
  'Electron is not installed here (its binary was not downloaded), so Cairn runs as a headless host: open the URL it prints in a browser.';

/** The Electron executable, or null when the package or its downloaded binary is missing. */
export function electronBinary(projectDir) {
  try {
    const path = createRequire(join(projectDir, 'package.json'))('electron');
    return typeof path === 'string' && existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

/** True when an output is missing or older than the newest source. */
export function isBuildStale(outputTimes, newestSourceTime) {
  if (outputTimes.length === 0 || outputTimes.some((time) => time === null)) return true;
  return Math.min(...outputTimes) < newestSourceTime;
}

/**
 * The steps `npm start` takes, decided from what it found. Kept pure so the decision is tested;
 * `main` carries the steps out.
 */
export function planStart({ electronPath, sqliteReady, desktopStale, headlessStale }) {
  if (electronPath !== null) {
    return [
      ...(sqliteReady ? [] : [{ kind: 'prepare-sqlite' }]),
      ...(desktopStale ? [{ kind: 'build' }] : []),
      { kind: 'launch-electron', electronPath },
    ];
  }
  return [
    { kind: 'note', text: NO_ELECTRON_NOTE },
    { kind: 'check-sqlite' },
    ...(headlessStale ? [{ kind: 'build' }] : []),
    { kind: 'serve' },
  ];
}

const IGNORED_SOURCE = /\.test\.tsx?$/;

/** The newest modification time under `paths` (files, or folders walked recursively); tests excluded. */
export function newestModification(projectDir, paths) {
  let newest = 0;
  const visit = (path) => {
    let stats;
    try {
      stats = statSync(path);
    } catch {
      return;
    }
    if (stats.isDirectory()) {
      for (const name of readdirSync(path)) if (name !== 'node_modules') visit(join(path, name));
    } else if (!IGNORED_SOURCE.test(path)) {
      newest = Math.max(newest, stats.mtimeMs);
    }
  };
  for (const path of paths) visit(join(projectDir, path));
  return newest;
}

/** Each path's modification time, or null where it is missing. */
export function modificationTimes(projectDir, paths) {
  return paths.map((path) => {
    try {
      return statSync(join(projectDir, path)).mtimeMs;
    } catch {
      return null;
    }
  });
}

/** The JavaScript file behind a package's command (run with this Node, so no shell is involved). */
export function packageBin(projectDir, name, command = name) {
  const pkgPath = join(projectDir, 'node_modules', name, 'package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8'));
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin?.[command];
  if (typeof bin !== 'string') throw new Error(`${name} has no "${command}" command`);
  return join(projectDir, 'node_modules', name, bin);
}

/** The environment for a child: Electron must not start as plain Node because a parent set this. */
export function childEnv(env) {
  const copy = { ...env };
  delete copy.ELECTRON_RUN_AS_NODE;
  return copy;
}

function build(projectDir) {
  console.log('Building Cairn (electron-vite build)…');
  const result = spawnSync(process.execPath, [packageBin(projectDir, 'electron-vite'), 'build'], {
    cwd: projectDir,
    stdio: 'inherit',
    env: childEnv(process.env),
  });
  if (result.status !== 0) throw new Error('The build failed (electron-vite build); see its output above.');
}

/**
 * Runs the app as a child and mirrors its exit. On POSIX the child gets its own process group, so a
 * terminal's Ctrl+C reaches it once (forwarded from here) rather than twice.
 */
function runChild(command, args, projectDir) {
  const child = spawn(command, args, {
    cwd: projectDir,
    stdio: 'inherit',
    env: childEnv(process.env),
    detached: process.platform !== 'win32',
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    });
  }
  child.on('error', (error) => {
    console.error(`cairn: could not start ${command}: ${error.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => process.exit(code ?? (signal === null ? 1 : 128 + signalNumber(signal))));
}

function signalNumber(signal) {
  return { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 }[signal] ?? 0;
}

function main() {
  const projectDir = PROJECT_DIR;
  const args = process.argv.slice(2);
  const electronPath = electronBinary(projectDir);
  const steps = planStart({
    electronPath,
    sqliteReady: electronPath === null || electronSqliteStatus(projectDir).current,
    desktopStale: isBuildStale(
      modificationTimes(projectDir, DESKTOP_OUTPUTS),
      newestModification(projectDir, DESKTOP_SOURCES),
    ),
    headlessStale: isBuildStale(
      modificationTimes(projectDir, HEADLESS_OUTPUTS),
      newestModification(projectDir, HEADLESS_SOURCES),
    ),
  });
  for (const step of steps) {
    switch (step.kind) {
      case 'note':
        console.log(step.text);
        break;
      case 'check-sqlite': {
        // The headless host runs on this Node's better-sqlite3 build: say so plainly if it cannot load.
        const sqlite = checkNativeSqlite(projectDir);
        if (!sqlite.ok) {
          console.error(sqlite.message);
          process.exit(1);
        }
        break;
      }
      case 'prepare-sqlite':
        prepareElectronSqlite({ projectDir });
        break;
      case 'build':
        build(projectDir);
        break;
      case 'launch-electron':
        runChild(step.electronPath, [projectDir, ...args], projectDir);
        break;
      case 'serve':
        runChild(process.execPath, [join(projectDir, 'out', 'main', 'serve.js'), ...args], projectDir);
        break;
    }
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  try {
    main();
  } catch (error) {
    console.error(`cairn: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
