#!/usr/bin/env node
/**
 * Makes sure the sandbox's system tools are there before `npm test`: bubblewrap (`bwrap`) and
 * `socat`, which Cairn's sandbox for agents' commands needs on Linux (src-main/runtime/sandbox). The
 * sandbox tests run the real bubblewrap, so they need it. As with Chromium (scripts/chromium.mjs):
 * as root on Debian with apt-get the missing packages are installed, saying so first; anywhere else
 * nothing is installed behind the person's back — the script stops with the command to run.
 * Not Linux: nothing to do (there is no sandbox there yet).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Each tool the sandbox runs, and the Debian package it comes in. */
export const SANDBOX_TOOLS = [
  { command: 'bwrap', pkg: 'bubblewrap' },
  { command: 'socat', pkg: 'socat' },
];

/** What to do, from what was found. Pure, so every branch is tested. */
export function planSandboxTools({ platform, missing, isRoot, isDebian, hasAptGet }) {
  if (platform !== 'linux' || missing.length === 0) return { kind: 'ready' };
  const packages = SANDBOX_TOOLS.filter((tool) => missing.includes(tool.command)).map((tool) => tool.pkg);
  if (isRoot && isDebian && hasAptGet) {
    return {
      kind: 'apt-install',
      note: `The sandbox tests need ${packages.join(' and ')}, not found. Installing Debian's ${packages.join(' ')} (apt-get install -y ${packages.join(' ')})…`,
      commands: [
        ['apt-get', 'update', '-qq'],
        ['apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...packages],
      ],
    };
  }
  return {
    kind: 'missing',
    message: `The sandbox tests need ${packages.join(' and ')}, not found. Install them, then run npm test again:\n  Debian/Ubuntu:  sudo apt-get install -y ${packages.join(' ')}\n  Fedora:         sudo dnf install -y ${packages.join(' ')}`,
  };
}

function onPath(command, env) {
  return (env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && existsSync(join(dir, command)));
}

export function surveySandboxTools(env = process.env) {
  return {
    platform: process.platform,
    missing: SANDBOX_TOOLS.map((tool) => tool.command).filter((command) => !onPath(command, env)),
    isRoot: typeof process.getuid === 'function' && process.getuid() === 0,
    isDebian: existsSync('/etc/debian_version'),
    hasAptGet: onPath('apt-get', env),
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const plan = planSandboxTools(surveySandboxTools());
  if (plan.kind === 'missing') {
    console.error(plan.message);
    process.exit(1);
  }
  if (plan.kind === 'apt-install') {
    console.log(plan.note);
    for (const [command, ...args] of plan.commands) {
      const status =
        spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } })
          .status ?? 1;
      if (status !== 0) {
        console.error(`\`${[command, ...args].join(' ')}\` failed (exit ${status}).`);
        process.exit(1);
      }
    }
  }
}
