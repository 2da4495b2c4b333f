#!/usr/bin/env node
/**
 * Proves the README's install command works on a fresh machine, with nothing else: copies the
 * project (tracked and new files, no node_modules, no out/) to a temporary folder, runs
 * `npm install` there with no Electron, Playwright, Cairn or npm_config_ variables set, and checks
 * that it exits 0, leaves a better-sqlite3 that loads, and prints no install-script warning.
 *
 * It compiles better-sqlite3 where no prebuilt binary can be downloaded (a few minutes on two
 * cores), so CI runs it as its own step (.ci/run) rather than inside `npm test`.
 *
 * Usage: node scripts/check-fresh-install.mjs [--keep]   (--keep leaves the copy for inspection)
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Variables a fresh machine would not have: anything that steers Electron, Playwright, Cairn or npm. */
const STEERING = /^(ELECTRON_|PLAYWRIGHT_|CAIRN_|npm_|NPM_CONFIG_|INIT_CWD$|NODE_OPTIONS$)/i;

/** The environment `npm install` gets: this one without the variables a fresh machine lacks. */
export function freshEnv(env) {
  return Object.fromEntries(Object.entries(env).filter(([key, value]) => value !== undefined && !STEERING.test(key)));
}

export const SCRIPTS_WARNING = /install scripts not yet covered by allowScripts/;

/** The verdict on one run. Pure, so it is tested. */
export function judgeInstall({ status, output, sqliteLoads }) {
  const problems = [];
  if (status !== 0) problems.push(`npm install exited ${status}`);
  if (SCRIPTS_WARNING.test(output))
    problems.push('npm warned about install scripts not covered by allowScripts (package.json)');
  if (status === 0 && !sqliteLoads) problems.push('better-sqlite3 does not load after the install');
  return { ok: problems.length === 0, problems };
}

/** The files a clone would have: tracked ones plus new ones not ignored (relative paths). */
function projectFiles() {
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  return listed.stdout.split('\0').filter((path) => path !== '' && existsSync(join(ROOT, path)));
}

function main() {
  const keep = process.argv.includes('--keep');
  const copy = mkdtempSync(join(tmpdir(), 'cairn-fresh-install-'));
  try {
    for (const path of projectFiles()) {
      mkdirSync(dirname(join(copy, path)), { recursive: true });
      cpSync(join(ROOT, path), join(copy, path));
    }
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    console.log(
      `Fresh install check: \`npm install\` in a clean copy (${copy}), no Electron/Playwright/npm variables set…`,
    );
    const started = Date.now();
    const install = spawnSync(npm, ['install'], {
      cwd: copy,
      env: freshEnv(process.env),
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    const output = `${install.stdout ?? ''}${install.stderr ?? ''}`;
    writeFileSync(join(copy, 'npm-install.log'), output);
    const preflight = spawnSync(process.execPath, [join(copy, 'scripts', 'preflight.mjs')], {
      cwd: copy,
      encoding: 'utf8',
    });
    const verdict = judgeInstall({ status: install.status ?? 1, output, sqliteLoads: preflight.status === 0 });
    const electron = existsSync(join(copy, 'node_modules', 'electron', 'package.json'))
      ? 'Electron installed (its binary was downloaded)'
      : 'Electron not installed (its binary could not be downloaded; npm start will run the headless host)';
    console.log(
      output
        .trimEnd()
        .split('\n')
        .map((line) => `  | ${line}`)
        .join('\n'),
    );
    if (!verdict.ok) {
      console.error(`Fresh install check FAILED after ${seconds} s: ${verdict.problems.join('; ')}.`);
      process.exitCode = 1;
      return;
    }
    console.log(`Fresh install check passed in ${seconds} s: npm install exited 0; ${electron}; better-sqlite3 loads.`);
  } finally {
    if (keep) console.log(`Kept ${copy}`);
    else rmSync(copy, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();
