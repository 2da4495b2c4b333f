#!/usr/bin/env node
/**
 * Runs npm scripts side by side and prints each one's output whole, in the order given, once it ends:
 * `npm test` checks (lint, typecheck) and builds at once, since each of them keeps one core busy, and
 * then runs the unit tests beside the end-to-end tests (each waits on its processes and pages for much
 * of its time, so one alone leaves the cores half idle). `--live` before a script's name lets that one
 * write straight to the terminal as it runs (the others' output follows, whole, when it ends).
 * Exits 1 when any of them failed, after all have ended.
 *
 * Usage: node scripts/run-parallel.mjs [--live] <script> [[--live] <script> ...]
 */
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

/**
 * Runs one npm script with its output captured (or, `live`, written straight to this process's own);
 * resolves with its exit status, output (empty when live) and duration.
 */
export function runScript(
  name,
  { npm = process.platform === 'win32' ? 'npm.cmd' : 'npm', cwd = process.cwd(), live = false } = {},
) {
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn(npm, ['run', name], {
      cwd,
      env: process.env,
      stdio: live ? ['ignore', 'inherit', 'inherit'] : ['ignore', 'pipe', 'pipe'],
      shell: process.platform === 'win32',
    });
    const chunks = [];
    child.stdout?.on('data', (chunk) => chunks.push(chunk));
    child.stderr?.on('data', (chunk) => chunks.push(chunk));
    child.on('error', (error) => done({ name, status: 1, output: String(error), seconds: 0 }));
    child.on('close', (code, signal) =>
      done({
        name,
        status: code ?? (signal === null ? 1 : 128),
        output: Buffer.concat(chunks).toString('utf8'),
        seconds: (Date.now() - started) / 1000,
      }),
    );
  });
}

/** The scripts named on the command line, each with whether it runs live. Pure, so it is tested. */
export function parseArguments(args) {
  const scripts = [];
  let live = false;
  for (const arg of args) {
    if (arg === '--live') live = true;
    else {
      scripts.push({ name: arg, live });
      live = false;
    }
  }
  return scripts;
}

/** The line that closes a script's output. Pure, so it is tested. */
export function summaryLine({ name, status, seconds }) {
  return status === 0
    ? `✓ npm run ${name} (${seconds.toFixed(0)} s)`
    : `✗ npm run ${name} failed with exit status ${status} (${seconds.toFixed(0)} s)`;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const scripts = parseArguments(process.argv.slice(2));
  if (scripts.length === 0) {
    console.error('Usage: node scripts/run-parallel.mjs [--live] <script> [[--live] <script> ...]');
    process.exit(2);
  }
  const quiet = scripts.filter((script) => !script.live).map((script) => `npm run ${script.name}`);
  if (scripts.some((script) => script.live) && quiet.length > 0)
    console.log(`${quiet.join(', ')}: running alongside; the output follows when each ends.`);
  const pending = scripts.map(({ name, live }) => runScript(name, { live }));
  const results = [];
  for (const result of pending) {
    const { name, status, output, seconds } = await result;
    if (output !== '') process.stdout.write(`\n── npm run ${name} ──\n${output}`);
    console.log(summaryLine({ name, status, seconds }));
    results.push({ name, status, seconds });
  }
  if (results.length > 1) {
    console.log('');
    for (const result of results) console.log(summaryLine(result));
  }
  process.exit(results.some((result) => result.status !== 0) ? 1 : 0);
}
