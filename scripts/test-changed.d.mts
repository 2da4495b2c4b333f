/** Types for test-changed.mjs (a plain Node script), so its tests type-check. */

export declare function pathWords(path: string): Set<string>;
export declare function specAreas(spec: string): string[];
export declare function planE2e(
  changed: readonly string[],
  specs: readonly string[],
  helperUsers?: Record<string, readonly string[]>,
): Map<string, string>;
export declare function planUnit(changed: readonly string[]): { all: boolean; why: string; files: string[] };
export declare function changedFiles(base: string): string[];
