#!/usr/bin/env node
/**
 * Runs npm scripts side by side and prints each one's output whole, in the order given, once it ends:
 * `npm test` checks (lint, typecheck) and builds at once, since each of them keeps one core busy.
 * Exits 1 when any of them failed, after all have ended.
 *
 * Usage: node scripts/run-parallel.mjs <script> [<script> ...]
 */
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

/** Runs one npm script with its output captured; resolves with its exit status, output and duration. */
export function runScript(name, { npm = process.platform === 'win32' ? 'npm.cmd' : 'npm', cwd = process.cwd() } = {}) {
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn(npm, ['run', name], {
      cwd,
      env: process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: process.platform === 'win32',
    });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
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

/** The line that closes a script's output. Pure, so it is tested. */
export function summaryLine({ name, status, seconds }) {
  return status === 0
    ? `✓ npm run ${name} (${seconds.toFixed(0)} s)`
    : `✗ npm run ${name} failed with exit status ${status} (${seconds.toFixed(0)} s)`;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const names = process.argv.slice(2);
  if (names.length === 0) {
    console.error('Usage: node scripts/run-parallel.mjs <script> [<script> ...]');
    process.exit(2);
  }
  const pending = names.map((name) => runScript(name));
  let failed = false;
  for (const result of pending) {
    const { name, status, output, seconds } = await result;
    process.stdout.write(`\n── npm run ${name} ──\n${output}`);
    console.log(summaryLine({ name, status, seconds }));
    if (status !== 0) failed = true;
  }
  process.exit(failed ? 1 : 0);
}
