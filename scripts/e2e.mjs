#!/usr/bin/env node
// Runs the Playwright end-to-end suite. It uses Debian's /usr/bin/chromium where present, otherwise
// Playwright's own Chromium (installing it where downloads work), and otherwise stops with a message
// that says exactly what to install. It builds the renderer first when out/renderer is missing.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

function run(command, args, env = process.env) {
  return spawnSync(command, args, { cwd: root, stdio: 'inherit', env }).status ?? 1;
}

async function playwrightChromium() {
  try {
    const { chromium } = await import('playwright');
    const path = chromium.executablePath();
    return existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

async function findChromium() {
  if (process.env.CAIRN_CHROMIUM && existsSync(process.env.CAIRN_CHROMIUM)) return process.env.CAIRN_CHROMIUM;
  for (const candidate of ['/usr/bin/chromium', '/usr/bin/chromium-browser']) if (existsSync(candidate)) return candidate;
  const bundled = await playwrightChromium();
  if (bundled) return bundled;
  console.log('No Chromium found; trying `npx playwright install chromium`…');
  if (run(npx, ['playwright', 'install', 'chromium']) === 0) return playwrightChromium();
  return null;
}

const chromium = await findChromium();
if (!chromium) {
  console.error(
    [
      'The end-to-end tests need Chromium, and none could be found or installed.',
      'Install one of these, then run `npm run test:e2e` again:',
      '  Debian/Ubuntu:  sudo apt-get install -y chromium',
      '  anywhere with internet access:  npx playwright install chromium',
      'Or point CAIRN_CHROMIUM at a Chromium or Chrome executable.',
    ].join('\n'),
  );
  process.exit(1);
}

if (!existsSync(join(root, 'out', 'renderer', 'index.html'))) {
  console.log('Building the renderer first (out/renderer is missing)…');
  const built = run(npx, ['electron-vite', 'build']);
  if (built !== 0) process.exit(built);
}

console.log(`End-to-end tests in ${chromium}`);
process.exit(run(npx, ['playwright', 'test', ...process.argv.slice(2)], { ...process.env, CAIRN_CHROMIUM: chromium }));
