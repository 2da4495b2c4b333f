#!/usr/bin/env node
/**
 * Installs the real ACP agents the offline agent tests drive (pinned in test-agents/package.json,
 * kept out of Cairn's own install) and checks that each can be started: `npm run test-agents`, which
 * CI runs before `npm test`.
 *
 * - `npm install --no-save`, not `npm ci`: opencode lists a package per platform as optional, and the
 *   registry these machines reach serves only the Linux ones, so the lock cannot name them all and
 *   `npm ci` refuses it; install keeps to the lock's versions and skips what the platform does not need.
 * - `--ignore-scripts`: the one install script among them is opencode-ai's postinstall, which copies
 *   its platform package's binary over a placeholder and fails the whole install when that copy's
 *   `--version` does not answer (CI once failed so, in 95 s, with nothing else said). Cairn runs the
 *   platform package's binary itself (acp-presets.ts), so that is the one checked here, and when it
 *   does not answer its own output and exit status are printed.
 * - A failed install or check is tried once more from an empty node_modules; then the script says what
 *   is missing and exits 1, so CI (which requires the agents) stops before the tests.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { arch, platform } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const AGENTS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'test-agents');

export const INSTALL_ARGS = [
  'install',
  '--prefix',
  AGENTS_DIR,
  '--no-save',
  '--no-audit',
  '--no-fund',
  '--ignore-scripts',
];

/**
 * What must be there once installed, for this platform: each agent's program, and for a native
 * binary the arguments that make it answer and exit. Pure, so it is tested.
 */
export function agentPrograms(modules, os = platform(), cpu = arch()) {
  const system = os === 'win32' ? 'windows' : os;
  return [
    {
      agent: 'Claude',
      path: join(modules, '@agentclientprotocol', 'claude-agent-acp', 'dist', 'index.js'),
      answers: null,
    },
    {
      agent: 'OpenCode',
      path: join(modules, `opencode-${system}-${cpu}`, 'bin', system === 'windows' ? 'opencode.exe' : 'opencode'),
      answers: ['--version'],
    },
    {
      agent: 'Gemini CLI',
      path: join(modules, '@google', 'gemini-cli', 'bundle', 'gemini.js'),
      answers: null,
    },
  ];
}

/** Why a program's check failed, from spawnSync's result; null when it answered. Pure, so it is tested. */
export function failureOf(result) {
  if (result.error !== undefined) return `could not be started: ${result.error.message}`;
  if (result.status === 0) return null;
  const how = result.signal !== null ? `was killed by ${result.signal}` : `exited with status ${result.status}`;
  const said = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim();
  return said === '' ? `${how}, saying nothing` : `${how}, saying:\n${said}`;
}

/** Each program's problem, or an empty list when all are there and answer. */
export function checkPrograms(programs, { exists = existsSync, run = runQuietly } = {}) {
  const problems = [];
  for (const { agent, path, answers } of programs) {
    if (!exists(path)) {
      problems.push(`${agent}: ${path} is missing`);
      continue;
    }
    if (answers === null) continue;
    const failure = failureOf(run(path, answers));
    if (failure !== null) problems.push(`${agent}: ${path} ${answers.join(' ')} ${failure}`);
  }
  return problems;
}

function runQuietly(path, args) {
  return spawnSync(path, args, { encoding: 'utf8', timeout: 120_000, stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * Install, check, and once more from scratch when either fails. `install` returns npm's exit status;
 * `check` the problems; `clean` empties node_modules. Returns the exit status for the script.
 */
export function installAndCheck({ install, check, clean, log = console.log, error = console.error, attempts = 2 }) {
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const status = install();
    const problems = status === 0 ? check() : [`npm install exited with status ${status}`];
    if (problems.length === 0) {
      log(`The real ACP agents are installed in ${AGENTS_DIR} and start.`);
      return 0;
    }
    error(`The real ACP agents are not ready (attempt ${attempt} of ${attempts}):\n  ${problems.join('\n  ')}`);
    if (attempt < attempts) {
      log('Removing test-agents/node_modules and installing again…');
      clean();
    }
  }
  return 1;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const npm = platform() === 'win32' ? 'npm.cmd' : 'npm';
  const modules = join(AGENTS_DIR, 'node_modules');
  const status = installAndCheck({
    install: () => spawnSync(npm, INSTALL_ARGS, { stdio: 'inherit', shell: platform() === 'win32' }).status ?? 1,
    check: () => checkPrograms(agentPrograms(modules)),
    clean: () => rmSync(modules, { recursive: true, force: true }),
  });
  if (status !== 0) spawnSync('df', ['-h', AGENTS_DIR], { stdio: 'inherit' });
  process.exit(status);
}
