import { join } from 'node:path';
import { globSync } from 'tinyglobby';
import { describe, expect, it } from 'vitest';
import { NEEDS_ISOLATION, SHARED_GRAPH } from '../vitest.config';

const ROOT = join(import.meta.dirname, '..');
const testFiles = (patterns: string | string[]) =>
  globSync(patterns, { cwd: ROOT, ignore: ['**/node_modules/**'] }).sort();

/** `a/{b,c}/*.{ts,tsx}` → a/b/*.ts, a/b/*.tsx, a/c/*.ts, a/c/*.tsx: each folder a glob names, on its own. */
function expandBraces(pattern: string): string[] {
  const group = /\{([^{}]*)\}/.exec(pattern);
  if (group === null) return [pattern];
  const [before, after] = [pattern.slice(0, group.index), pattern.slice(group.index + group[0].length)];
  return (group[1] ?? '').split(',').flatMap((choice) => expandBraces(before + choice + after));
}

describe('vitest.config.ts', () => {
  // A folder renamed under a glob sends its files back to a fresh module graph each, silently: only
  // their run time says so.
  it('every glob in SHARED_GRAPH and every file in NEEDS_ISOLATION names at least one test file', () => {
    const alternatives = [...SHARED_GRAPH, ...NEEDS_ISOLATION].flatMap(expandBraces);
    const unmatched = alternatives.filter((pattern) => testFiles(pattern).length === 0);
    expect(unmatched).toEqual([]);
  });

  it('reads each alternative of a glob on its own', () => {
    expect(expandBraces('src/{a,b}/**/*.test.{ts,tsx}')).toEqual([
      'src/a/**/*.test.ts',
      'src/a/**/*.test.tsx',
      'src/b/**/*.test.ts',
      'src/b/**/*.test.tsx',
    ]);
  });

  // An exception outside SHARED_GRAPH would run twice: in project `isolated` and in `isolated-exceptions`.
  it('every file in NEEDS_ISOLATION is one SHARED_GRAPH would otherwise take', () => {
    const shared = new Set(testFiles(SHARED_GRAPH));
    expect(testFiles(NEEDS_ISOLATION).filter((file) => !shared.has(file))).toEqual([]);
  });
});
