import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleName, inputsName, TEST_PROGRAMS, TEST_PROGRAMS_DIR_VARIABLE } from './test-programs';

const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Bundles every program of `TEST_PROGRAMS` into `dir`, each with the list of sources it was made from.
 * Packages stay imports of their own: `dir` is inside the project's node_modules, so Node finds them
 * there as it would from the sources.
 */
export async function bundleTestPrograms(dir: string): Promise<void> {
  const results = await Promise.allSettled(
    TEST_PROGRAMS.map(async (program) => {
      const result = await build({
        absWorkingDir: PROJECT_ROOT,
        entryPoints: [program],
        outfile: join(dir, bundleName(program)),
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        packages: 'external',
        metafile: true,
        logLevel: 'silent',
      });
      writeFileSync(join(dir, inputsName(program)), JSON.stringify(Object.keys(result.metafile.inputs)));
    }),
  );
  results.forEach((result, index) => {
    if (result.status === 'rejected')
      console.warn(`${TEST_PROGRAMS[index]} runs through tsx: bundling it failed (${String(result.reason)}).`);
  });
}

/** A new folder for bundles, inside the project's node_modules (where their packages are found). */
export function newBundleDir(): string {
  const parent = join(PROJECT_ROOT, 'node_modules', '.cache', 'cairn-test-programs');
  mkdirSync(parent, { recursive: true });
  return mkdtempSync(join(parent, 'run-'));
}

/**
 * Vitest's global setup: bundles the test programs into a folder of this run's own (two runs side by
 * side never share one) and tells the workers where; removed when the run ends. A program whose bundle
 * cannot be made runs through tsx, as before.
 */
export default async function setup(): Promise<() => void> {
  const dir = newBundleDir();
  await bundleTestPrograms(dir);
  process.env[TEST_PROGRAMS_DIR_VARIABLE] = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
