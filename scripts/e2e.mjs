#!/usr/bin/env node
// Runs the Playwright end-to-end suite in Chromium. scripts/chromium.mjs finds the browser, or
// installs Debian's package where that is the machine's own way (root on Debian with apt-get), or
// stops with a message saying exactly what to install. The app is built first when its build is
// missing or stale.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { obtainChromium } from './chromium.mjs';
import { checkNativeSqlite } from './preflight.mjs';
import { isBuildStale, modificationTimes, newestModification } from './start.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

function run(command, args, env = process.env) {
  return spawnSync(command, args, { cwd: root, stdio: 'inherit', env }).status ?? 1;
}

const sqlite = checkNativeSqlite();
if (!sqlite.ok) {
  console.error(sqlite.message);
  process.exit(1);
}

const chromium = await obtainChromium();
if (chromium === null) process.exit(1);

// The journeys run the built renderer and the built headless host (out/main/serve.js): build them
// when either is missing or older than the sources, so a journey never runs yesterday's code.
const outputs = ['out/main/serve.js', 'out/renderer/index.html'];
const sources = ['src-main', 'src-renderer', 'src-shared', 'electron.vite.config.ts', 'package.json'];
if (isBuildStale(modificationTimes(root, outputs), newestModification(root, sources))) {
  console.log('Building first (out/ is missing or older than the sources)…');
  const built = run(npx, ['electron-vite', 'build']);
  if (built !== 0) process.exit(built);
}

console.log(`End-to-end tests in ${chromium}`);
process.exit(run(npx, ['playwright', 'test', ...process.argv.slice(2)], { ...process.env, CAIRN_CHROMIUM: chromium }));
