import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The programs tests start as processes of their own, written in TypeScript. Through tsx each start
 * costs about 0.8 s of CPU (its loader, and esbuild transforming every module); the test run bundles
 * them once (`test-programs-setup.ts`, vitest's global setup) and each start then costs about 0.3 s.
 */
export const TEST_PROGRAMS = [
  'src-main/testing/acp-test-agent.ts',
  'src-main/testing/mcp-servers/stdio-test-server.ts',
  'src-main/testing/mcp-servers/elicit-test-server.ts',
  'src-main/testing/checkpoint-crash-child.ts',
  'src-main/storage/testing/lock-racer.ts',
] as const;

export type TestProgram = (typeof TEST_PROGRAMS)[number];

/** Where the test run put its bundles (set by the global setup, inherited by the test workers). */
export const TEST_PROGRAMS_DIR_VARIABLE = 'CAIRN_TEST_PROGRAMS';

/** The bundle's file name for a program: its path with `/` as `__`, `.mjs` for `.ts`. */
export function bundleName(program: string): string {
  return program.replaceAll('/', '__').replace(/\.ts$/, '.mjs');
}

/** The list of source files a bundle was made from, written beside it. */
export function inputsName(program: string): string {
  return bundleName(program).replace(/\.mjs$/, '.inputs.json');
}

/**
 * The bundle of `program` when the test run made one and none of the files it was made from changed
 * since (a test run in watch mode keeps its bundles while the sources are edited); null otherwise.
 */
export function freshBundle(
  program: TestProgram,
  dir: string | undefined = process.env[TEST_PROGRAMS_DIR_VARIABLE],
): string | null {
  if (dir === undefined || dir === '') return null;
  const bundle = join(dir, bundleName(program));
  const inputs = join(dir, inputsName(program));
  if (!existsSync(bundle) || !existsSync(inputs)) return null;
  const built = statSync(bundle).mtimeMs;
  const sources = JSON.parse(readFileSync(inputs, 'utf8')) as unknown;
  if (!Array.isArray(sources)) return null;
  for (const source of sources) {
    if (typeof source !== 'string') return null;
    const path = resolve(PROJECT_ROOT, source);
    if (!existsSync(path) || statSync(path).mtimeMs > built) return null;
  }
  return bundle;
}

/** The arguments that make Node run `program`: its bundle when fresh, else its source through tsx. */
export function testProgramArgs(program: TestProgram): string[] {
  const bundle = freshBundle(program);
  if (bundle !== null) return [bundle];
  return ['--import', fileURLToPath(import.meta.resolve('tsx')), join(PROJECT_ROOT, program)];
}
