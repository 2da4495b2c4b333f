#!/usr/bin/env node
/**
 * `npm run test:changed`: the tests for the files a change touches, instead of the whole suite.
 *
 * The change is every file that differs from the base (by default where this branch left `main`, else
 * HEAD), committed or not, plus untracked files. Then:
 * - unit and integration tests: `vitest related --run` on the changed files (vitest follows the
 *   imports: every test file that imports a changed file, directly or not, and changed test files);
 *   a change to what configures or installs them (package.json, the lockfile, vitest.config.ts,
 *   tsconfig) runs them all;
 * - end-to-end specs (planE2e below): a changed spec; the specs that import a changed e2e helper; all
 *   of them when the harness changes (fixtures, host, Playwright config, scripts/e2e.mjs, the serve
 *   child); for a changed source file, the specs named after its area: a word of the spec's name
 *   (chat, workhub, codex, …) that is a folder or a word of the file's name (`runtime/workhub/…`,
 *   `WorkHubView.tsx`, `codex-backend.ts`); a source file that names no spec runs chat.spec.ts, the
 *   basic journey, so no change to the app goes without one.
 *
 * Usage: node scripts/test-changed.mjs [--base REF] [--dry-run]
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Changes that make every unit test suspect. */
const UNIT_WIDE = [
  'package.json',
  'package-lock.json',
  'vitest.config.ts',
  'tsconfig.json',
  'tsconfig.no-electron.json',
];
/** The end-to-end harness: a change here runs every spec. */
const E2E_WIDE = [
  'e2e/fixtures.ts',
  'e2e/cairn-host.ts',
  'playwright.config.ts',
  'scripts/e2e.mjs',
  'scripts/chromium.mjs',
  'src-main/testing/serve-process.ts',
  'package.json',
  'package-lock.json',
];
/** Where a change can alter what a journey sees. */
const APP_SOURCES = ['src-main/', 'src-renderer/', 'src-shared/', 'src-preload/'];
/** Words of spec names that say how, not what: they name no area. */
const NOT_AN_AREA = new Set([
  'host',
  'essentials',
  'untrue',
  'states',
  'down',
  'long',
  'slow',
  'actions',
  'plan',
  'install',
  'switcher',
  'picker',
  'prompts',
]);
const FALLBACK_SPEC = 'e2e/chat.spec.ts';

/** The lower-case words of a path: folders and the file name split at -, _, . and camelCase. */
export function pathWords(path) {
  return new Set(
    path
      .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
      .toLowerCase()
      .split(/[/\-_.]+/)
      .filter((word) => word !== '')
      .map(singular),
  );
}

function singular(word) {
  return word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
}

/** The area words of a spec: `e2e/mcp-prompts-elicitation.spec.ts` → mcp, elicitation. */
export function specAreas(spec) {
  const stem = spec.replace(/^e2e\//, '').replace(/\.spec\.ts$/, '');
  return stem
    .split('-')
    .filter((word) => !NOT_AN_AREA.has(word))
    .map(singular);
}

/**
 * Which specs cover a change, each with the reason. Pure, so it is tested.
 * `helperUsers` maps an e2e helper (e.g. `e2e/seed.ts`) to the specs that import it.
 */
export function planE2e(changed, specs, helperUsers = {}) {
  const chosen = new Map();
  const choose = (spec, why) => {
    if (!chosen.has(spec)) chosen.set(spec, why);
  };
  const wide = changed.find((file) => E2E_WIDE.includes(file));
  if (wide !== undefined) {
    for (const spec of specs) choose(spec, `${wide} is part of the end-to-end harness`);
    return chosen;
  }
  for (const file of changed) {
    if (specs.includes(file)) choose(file, 'the spec changed');
    else if (file.startsWith('e2e/')) for (const spec of helperUsers[file] ?? []) choose(spec, `it imports ${file}`);
  }
  for (const file of changed.filter(
    (path) => APP_SOURCES.some((root) => path.startsWith(root)) && !/\.test\.tsx?$/.test(path),
  )) {
    const words = pathWords(file);
    const named = specs.filter((spec) => specAreas(spec).some((area) => words.has(area)));
    for (const spec of named) choose(spec, `${file} is in its area`);
    if (named.length === 0 && specs.includes(FALLBACK_SPEC)) {
      choose(FALLBACK_SPEC, `${file} names no spec: the basic journey`);
    }
  }
  return chosen;
}

/** What vitest runs: all, the tests related to the changed files, or nothing. Pure, so it is tested. */
export function planUnit(changed) {
  const wide = changed.find((file) => UNIT_WIDE.includes(file));
  if (wide !== undefined) return { all: true, why: `${wide} changed`, files: [] };
  const files = changed.filter(
    (file) => /\.(ts|tsx|mjs|js)$/.test(file) && !file.startsWith('e2e/') && !file.startsWith('docs/'),
  );
  return {
    all: false,
    why: files.length === 0 ? 'no source or test file changed' : `${files.length} changed file(s)`,
    files,
  };
}

function git(args) {
  const result = spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : null;
}

/** The files that differ from `base` (committed, staged or not) and the untracked ones. */
export function changedFiles(base) {
  const lines = [git(['diff', '--name-only', base]), git(['ls-files', '--others', '--exclude-standard'])];
  return [...new Set(lines.flatMap((text) => (text === null || text === '' ? [] : text.split('\n'))))].sort();
}

function defaultBase() {
  return git(['merge-base', 'HEAD', 'main']) ?? 'HEAD';
}

function helperUsersOf(specs) {
  const users = {};
  for (const spec of specs) {
    for (const match of readFileSync(join(ROOT, spec), 'utf8').matchAll(/from '\.\/([\w-]+)'/g)) {
      const helper = `e2e/${match[1]}.ts`;
      (users[helper] ??= []).push(spec);
    }
  }
  return users;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const args = process.argv.slice(2);
  const baseAt = args.indexOf('--base');
  const base = baseAt >= 0 ? args[baseAt + 1] : defaultBase();
  const dryRun = args.includes('--dry-run');
  const changed = changedFiles(base);
  const specs = readdirSync(join(ROOT, 'e2e'))
    .filter((name) => name.endsWith('.spec.ts'))
    .map((name) => `e2e/${name}`);
  const unit = planUnit(changed);
  const e2e = planE2e(changed, specs, helperUsersOf(specs));

  console.log(`Changed since ${base.slice(0, 12)}: ${changed.length} file(s).`);
  console.log(
    `Unit and integration tests: ${unit.all ? 'all' : unit.files.length === 0 ? 'none' : 'those related to the changed files'} (${unit.why}).`,
  );
  console.log(`End-to-end specs: ${e2e.size === 0 ? 'none' : ''}`);
  for (const [spec, why] of e2e) console.log(`  ${spec}: ${why}`);
  if (dryRun) process.exit(0);

  const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
  let status = 0;
  if (unit.all || unit.files.length > 0) {
    const vitestArgs = unit.all
      ? ['vitest', 'run']
      : ['vitest', 'related', '--run', '--passWithNoTests', ...unit.files];
    status = spawnSync(npx, vitestArgs, { cwd: ROOT, stdio: 'inherit' }).status ?? 1;
  }
  if (e2e.size > 0) {
    const e2eStatus =
      spawnSync(process.execPath, [join(ROOT, 'scripts', 'e2e.mjs'), ...e2e.keys()], { cwd: ROOT, stdio: 'inherit' })
        .status ?? 1;
    if (status === 0) status = e2eStatus;
  }
  process.exit(status);
}
