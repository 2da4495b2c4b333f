#!/usr/bin/env node
/**
 * `npm run typecheck`: tsc over the whole project. Electron's API types come with the optional
 * `electron` package, which npm drops where Electron's binary cannot be downloaded; there the code
 * that imports `electron` (src-main/electron, src-preload) cannot be type-checked, so the rest is
 * checked and a line says what was left out. CI installs the package (ELECTRON_SKIP_BINARY_DOWNLOAD),
 * so CI always checks everything. Outside CI the check is incremental: tsc keeps what it learnt in
 * node_modules/.cache/tsc/, so a second run re-checks only what changed (about a quarter of the CPU
 * time). CI checks a fresh clone once, where writing that record would only cost time.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export const PARTIAL_NOTE =
  'Electron is not installed here, so its types are missing: src-main/electron and src-preload were not type-checked (they are wherever the `electron` package is installed, and in CI).';

/** Which tsconfig to check, and what to say. Pure, so the decision is tested. */
export function typecheckPlan({ electronTypesInstalled }) {
  return electronTypesInstalled
    ? { project: 'tsconfig.json', note: null }
    : { project: 'tsconfig.no-electron.json', note: PARTIAL_NOTE };
}

export function electronTypesInstalled(projectDir) {
  return existsSync(join(projectDir, 'node_modules', 'electron', 'electron.d.ts'));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const plan = typecheckPlan({ electronTypesInstalled: electronTypesInstalled(ROOT) });
  if (plan.note !== null) console.log(plan.note);
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const incremental =
    process.env.CI === undefined || process.env.CI === ''
      ? [
          '--incremental',
          '--tsBuildInfoFile',
          join(ROOT, 'node_modules', '.cache', 'tsc', `${plan.project}.tsbuildinfo`),
        ]
      : [];
  const result = spawnSync(process.execPath, [tsc, '--noEmit', '-p', plan.project, ...incremental], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  process.exit(result.status ?? 1);
}
