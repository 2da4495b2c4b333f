/**
 * Finds, or obtains, the Chromium the end-to-end tests run in (scripts/e2e.mjs).
 *
 * In order: CAIRN_CHROMIUM when it points at a file; Debian's /usr/bin/chromium (or Ubuntu's
 * chromium-browser); a Chromium that Playwright already downloaded. When none is there and we run as
 * root on Debian with apt-get (these build machines, CI, a container), Debian's `chromium` package is
 * installed, saying so first: it is the browser the suite is written against, it comes from the
 * machine's own package source, and it is updated with the system. Anywhere else (a developer's own
 * machine, not root, not Debian) nothing is installed behind the person's back: the runner stops
 * with the exact commands to choose from.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export const SYSTEM_CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];
export const DEBIAN_PACKAGE = 'chromium';

/** The apt-get commands that install Debian's Chromium, run in this order. */
export const APT_COMMANDS = [
  ['apt-get', 'update', '-qq'],
  ['apt-get', 'install', '-y', '-qq', '--no-install-recommends', DEBIAN_PACKAGE],
];

export const INSTALL_NOTE = `No Chromium found for the end-to-end tests. Installing Debian's \`${DEBIAN_PACKAGE}\` package (apt-get update && apt-get install -y --no-install-recommends ${DEBIAN_PACKAGE}), which puts it at /usr/bin/chromium…`;

export const MISSING_MESSAGE = [
  'The end-to-end tests need Chromium, and none was found.',
  'Install one of these, then run `npm test` (or `npm run test:e2e`) again:',
  `  Debian/Ubuntu:  sudo apt-get install -y ${DEBIAN_PACKAGE}`,
  '  anywhere else:  npx playwright install chromium',
  'Or point CAIRN_CHROMIUM at a Chromium or Chrome executable.',
].join('\n');

/**
 * What to do, from what was found. Pure, so every branch is tested.
 * `existing` lists the candidate paths that exist, in order of preference.
 */
export function planChromium({ override, existing, bundled, isRoot, isDebian, hasAptGet }) {
  if (override !== null && existing.includes(override)) return { kind: 'use', path: override };
  const system = SYSTEM_CHROMIUM.find((path) => existing.includes(path));
  if (system !== undefined) return { kind: 'use', path: system };
  if (bundled !== null) return { kind: 'use', path: bundled };
  if (isRoot && isDebian && hasAptGet)
    return { kind: 'apt-install', note: INSTALL_NOTE, commands: APT_COMMANDS, then: SYSTEM_CHROMIUM[0] };
  const why = override !== null ? `CAIRN_CHROMIUM (${override}) does not exist.\n` : '';
  return { kind: 'missing', message: why + MISSING_MESSAGE };
}

function onPath(command, env) {
  return (env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && existsSync(join(dir, command)));
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

/** What this machine has, for planChromium. */
export async function surveyChromium(env = process.env) {
  const override = env.CAIRN_CHROMIUM ? env.CAIRN_CHROMIUM : null;
  return {
    override,
    existing: [...(override === null ? [] : [override]), ...SYSTEM_CHROMIUM].filter((path) => existsSync(path)),
    bundled: await playwrightChromium(),
    isRoot: typeof process.getuid === 'function' && process.getuid() === 0,
    isDebian: existsSync('/etc/debian_version'),
    hasAptGet: onPath('apt-get', env),
  };
}

/**
 * Carries the plan out: the Chromium path to use, or null after printing why there is none.
 * `run` runs one command with inherited output and returns its exit status.
 */
export function carryOut(plan, { run, exists = existsSync, log = console.log, error = console.error }) {
  switch (plan.kind) {
    case 'use':
      return plan.path;
    case 'apt-install': {
      log(plan.note);
      for (const [command, ...args] of plan.commands) {
        const status = run(command, args, { ...process.env, DEBIAN_FRONTEND: 'noninteractive' });
        if (status !== 0) {
          error(`\`${[command, ...args].join(' ')}\` failed (exit ${status}).\n${MISSING_MESSAGE}`);
          return null;
        }
      }
      if (!exists(plan.then)) {
        error(`Debian's ${DEBIAN_PACKAGE} package was installed but ${plan.then} is not there.\n${MISSING_MESSAGE}`);
        return null;
      }
      return plan.then;
    }
    case 'missing':
      error(plan.message);
      return null;
  }
  return null;
}

/** Finds or obtains Chromium; returns its path, or null after saying why not. */
export async function obtainChromium() {
  const run = (command, args, env) => spawnSync(command, args, { stdio: 'inherit', env }).status ?? 1;
  return carryOut(planChromium(await surveyChromium()), { run });
}
